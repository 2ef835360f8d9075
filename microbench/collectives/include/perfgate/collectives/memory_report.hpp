#pragma once
// nccl-tests' -M 1 report: where a run's device memory went, in three parts, printed after a
// table's footer:
//   # GPU memory usage     : Initialization 1.20 GB | User-Allocated 512 MB | Collective 10.0 MB
//     | Total  1.72 GB   (one line)
// perfgate-collectives prints the same line for the MPI backend with "Host" for "GPU": there
// the memory is the process's resident memory.
#include <cstdint>
#include <string>
#include <string_view>

namespace perfgate::collectives {

struct MemoryReport {
  std::int64_t initialization = 0;  // taken by the communicator's setup (ncclCommInitRank)
  std::int64_t user_allocated = 0;  // the operation buffers, at their largest
  std::int64_t collective = 0;      // taken by the operations themselves (NCCL's lazy buffers)
  std::int64_t total() const { return initialization + user_allocated + collective; }
};

// An amount as nccl-tests prints it: binary B, KB, MB or GB, with 2 decimals below 10, 1 below
// 100 and none above ("5.00 B", "520 MB", "1.50 GB"); negative amounts keep their sign.
std::string memory_amount(std::int64_t bytes);

// The report's line, "\n" included; `device` is "GPU" or "Host".
std::string format_memory_line(std::string_view device, const MemoryReport& report);

}  // namespace perfgate::collectives

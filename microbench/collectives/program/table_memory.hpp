#pragma once
// -M 1: what one table's run took of the operations' device, split as nccl-tests' memory report
// splits it. Initialization is the communicator's setup, measured when the backend was made;
// User-Allocated the operation buffers at their largest; Collective what the memory in use grew
// by over the table beside the buffers' growth (NCCL's connection buffers, made at the first
// operation that needs them; on the host also MPI's and this program's own).
#include <cstdint>

#include "backend.hpp"
#include "perfgate/collectives/memory_report.hpp"

namespace perfgate::collectives {

class Communicator;

class TableMemory {
 public:
  explicit TableMemory(const Backend& backend);  // at the table's start
  void after_case();                             // while the case's buffers are held
  // Collective: each part's largest over the ranks, as nccl-tests reduces them.
  MemoryReport report(const Communicator& comm) const;

 private:
  const Backend& backend_;
  std::int64_t in_use_at_start_;
  std::int64_t buffers_at_start_;
  std::int64_t buffers_peak_;
};

}  // namespace perfgate::collectives

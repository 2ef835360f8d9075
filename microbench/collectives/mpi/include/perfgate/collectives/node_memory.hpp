#pragma once
// How much memory a rank may take before the kernel's out-of-memory killer (or a failed device
// allocation) ends the job: on a shared cluster node the killer may pick another user's process.
// The step proxy's model check and perfgate-collectives' buffer check share these.
#include <mpi.h>

#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>

namespace perfgate::collectives {

// The fraction of what a node (or GPU) has available that perfgate's own buffers may take; the
// rest is left to the MPI library, NCCL, the page cache and whatever else runs there.
inline constexpr double kUsableMemoryFraction = 0.9;

// "61.7 GiB": how memory checks print a byte count.
std::string gib(double bytes);
// A byte count in the largest binary unit that keeps it at 1 or more: "512.0 KiB", "61.7 GiB".
std::string bytes_text(double bytes);

// MemAvailable of a /proc/meminfo-format file, in bytes; nullopt when it has no such line.
std::optional<std::size_t> available_memory_bytes(
    const std::filesystem::path& meminfo = "/proc/meminfo");

// This process's resident memory in bytes (the second field of a /proc/self/statm-format file,
// in pages); nullopt when the file cannot be read.
std::optional<std::int64_t> resident_memory_bytes(
    const std::filesystem::path& statm = "/proc/self/statm");

// Collective over `comm`: how many of its ranks share this rank's node (MPI_COMM_TYPE_SHARED).
int ranks_sharing_node(MPI_Comm comm);

// What one rank may allocate for its buffers: kUsableMemoryFraction of what its node (host
// memory) or its GPU had available, divided among the ranks that share it, and no more than a
// limit the user set. Unknown availability and no limit: no bound.
struct MemoryShare {
  std::string memory = "host memory";  // "host memory", "GPU 0 memory"
  std::optional<double> available;     // bytes available to all the ranks sharing it
  int sharing_ranks = 1;
  std::optional<double> limit;   // the user's bound (--max-memory)
  double bytes() const;          // +infinity when nothing bounds it
  std::string describe() const;  // "10.4 GiB (90 % of 23.1 GiB of host memory ...)"
};

// Why `need` bytes do not fit `share` ("needs 8.0 GiB, more than ..."); nullopt when they do.
std::optional<std::string> memory_shortfall(double need, const MemoryShare& share);

// Collective over `comm`: this rank's share of its node's host memory (MemAvailable now,
// divided among the ranks on the node).
MemoryShare host_memory_share(MPI_Comm comm);

class Communicator;
// Collective over `comm`: nullopt on every rank when `need` fits every rank's share; else, on
// every rank, why not, naming the first rank short of memory and how many are.
std::optional<std::string> agreed_memory_shortfall(const Communicator& comm, double need,
                                                   const MemoryShare& mine);

}  // namespace perfgate::collectives

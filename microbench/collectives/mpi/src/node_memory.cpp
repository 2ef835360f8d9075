#include "perfgate/collectives/node_memory.hpp"

#include <unistd.h>

#include <algorithm>
#include <array>
#include <fstream>
#include <limits>
#include <sstream>

#include <fmt/format.h>

#include "perfgate/collectives/communicator.hpp"

namespace perfgate::collectives {

std::string gib(double bytes) {
  return fmt::format("{:.1f} GiB", bytes / double(1u << 30));
}

std::string bytes_text(double bytes) {
  constexpr std::array<const char*, 5> units{"B", "KiB", "MiB", "GiB", "TiB"};
  std::size_t unit = 0;
  while (unit + 1 < units.size() && bytes >= 1024) {
    bytes /= 1024;
    ++unit;
  }
  return unit == 0 ? fmt::format("{:.0f} B", bytes) : fmt::format("{:.1f} {}", bytes, units[unit]);
}

std::optional<std::size_t> available_memory_bytes(const std::filesystem::path& meminfo) {
  std::ifstream in(meminfo);
  for (std::string line; std::getline(in, line);) {
    std::istringstream fields(line);
    std::string key, unit;
    std::size_t kib = 0;
    if (fields >> key >> kib >> unit && key == "MemAvailable:" && unit == "kB") return kib * 1024;
  }
  return std::nullopt;
}

std::optional<std::int64_t> resident_memory_bytes(const std::filesystem::path& statm) {
  std::ifstream in(statm);
  std::int64_t size_pages = 0, resident_pages = 0;
  if (!(in >> size_pages >> resident_pages) || resident_pages < 0) return std::nullopt;
  return resident_pages * static_cast<std::int64_t>(::sysconf(_SC_PAGESIZE));
}

int ranks_sharing_node(MPI_Comm comm) {
  MPI_Comm node = MPI_COMM_NULL;
  MPI_Comm_split_type(comm, MPI_COMM_TYPE_SHARED, 0, MPI_INFO_NULL, &node);
  int ranks = 1;
  MPI_Comm_size(node, &ranks);
  MPI_Comm_free(&node);
  return ranks;
}

double MemoryShare::bytes() const {
  double share = std::numeric_limits<double>::infinity();
  if (available) share = kUsableMemoryFraction * *available / std::max(sharing_ranks, 1);
  return limit ? std::min(share, *limit) : share;
}

std::string MemoryShare::describe() const {
  // Bounded by the limit, or else by the available memory (nothing bounds it without either).
  if (limit && *limit <= bytes()) return fmt::format("{} (--max-memory)", bytes_text(*limit));
  return fmt::format("{} ({:.0f} % of {} of {} available, shared by {} rank{})",
                     bytes_text(bytes()), kUsableMemoryFraction * 100,
                     bytes_text(available.value_or(0)), memory, sharing_ranks,
                     sharing_ranks == 1 ? "" : "s");
}

std::optional<std::string> memory_shortfall(double need, const MemoryShare& share) {
  if (need <= share.bytes()) return std::nullopt;
  return fmt::format("needs {} for its buffers, more than {}", bytes_text(need), share.describe());
}

MemoryShare host_memory_share(MPI_Comm comm) {
  const std::optional<std::size_t> available = available_memory_bytes();
  return {"host memory", available ? std::optional<double>(double(*available)) : std::nullopt,
          ranks_sharing_node(comm), std::nullopt};
}

std::optional<std::string> agreed_memory_shortfall(const Communicator& comm, double need,
                                                   const MemoryShare& mine) {
  const std::optional<std::string> why = memory_shortfall(need, mine);
  const std::optional<RankReason> first = comm.first_reason(
      why ? std::optional(fmt::format("rank {} ({}) {}", comm.rank(), comm.host(), *why))
          : std::nullopt);
  if (!first) return std::nullopt;
  if (first->ranks == 1) return first->reason;
  return fmt::format("{} ({} of {} ranks short)", first->reason, first->ranks, comm.size());
}

}  // namespace perfgate::collectives

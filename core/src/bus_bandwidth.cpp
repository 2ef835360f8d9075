#include "perfgate/core/bus_bandwidth.hpp"

namespace perfgate {

std::optional<double> bus_bandwidth_factor(std::string_view collective, int ranks) {
  if (ranks < 1) return std::nullopt;
  const double n = ranks;
  if (collective == "all_reduce") return 2.0 * (n - 1) / n;
  // Each rank's link carries all blocks but its own.
  // Gather and scatter: the root's link carries every block but its own.
  if (collective == "all_gather" || collective == "reduce_scatter" || collective == "alltoall" ||
      collective == "gather" || collective == "scatter")
    return (n - 1) / n;
  // Hypercube's algbw already counts only the blocks that cross a link.
  if (collective == "broadcast" || collective == "reduce" || collective == "sendrecv" ||
      collective == "hypercube")
    return 1.0;
  return std::nullopt;
}

std::optional<double> algorithm_bandwidth_share(std::string_view collective, int ranks) {
  if (collective != "hypercube") return 1.0;
  if (ranks < 1) return std::nullopt;
  return double(ranks - 1) / ranks;
}

}  // namespace perfgate

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
  if (collective == "broadcast" || collective == "reduce" || collective == "sendrecv") return 1.0;
  return std::nullopt;
}

}  // namespace perfgate

#pragma once
// Bus bandwidth as nccl-tests defines it: busbw = algbw × factor, where the factor makes the
// figure comparable across rank counts and with the links' own speed (nccl-tests'
// doc/PERFORMANCE.md). One definition for perfgate-collectives and the nccl-tests log ingester.
#include <optional>
#include <string_view>

namespace perfgate {

// `collective`: "all_reduce", "all_gather", "reduce_scatter", "alltoall", "gather", "scatter",
// "broadcast", "reduce", "sendrecv" or "hypercube"; nullopt for any other name or fewer than
// one rank.
std::optional<double> bus_bandwidth_factor(std::string_view collective, int ranks);

// The share of the table's size column that algbw divides by the time: 1, but for hypercube's
// (n−1)/n (nccl-tests' hypercube_perf counts the blocks a rank receives, not its own), which
// makes its algbw all_gather's busbw on the same buffer); nullopt for hypercube's with fewer than
// one rank.
std::optional<double> algorithm_bandwidth_share(std::string_view collective, int ranks);

}  // namespace perfgate

#pragma once
// Bus bandwidth as nccl-tests defines it: busbw = algbw × factor, where the factor makes the
// figure comparable across rank counts and with the links' own speed (nccl-tests'
// doc/PERFORMANCE.md). One definition for perfgate-collectives and the nccl-tests log ingester.
#include <optional>
#include <string_view>

namespace perfgate {

// `collective`: "all_reduce", "all_gather", "reduce_scatter", "alltoall", "gather", "scatter",
// "broadcast", "reduce" or "sendrecv"; nullopt for any other name or fewer than one rank.
std::optional<double> bus_bandwidth_factor(std::string_view collective, int ranks);

}  // namespace perfgate

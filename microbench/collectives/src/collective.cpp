#include "perfgate/collectives/collective.hpp"

#include <array>
#include <bit>

#include <fmt/format.h>

#include "perfgate/core/bus_bandwidth.hpp"
#include "perfgate/core/error.hpp"

namespace perfgate::collectives {
namespace {

constexpr std::array<CollectiveInfo, 10> kTable{{
    {"all_reduce", "all_reduce_perf", true, false, false},
    {"all_gather", "all_gather_perf", false, false, true},
    {"reduce_scatter", "reduce_scatter_perf", true, false, true},
    {"broadcast", "broadcast_perf", false, true, false},
    {"reduce", "reduce_perf", true, true, false},
    {"alltoall", "alltoall_perf", false, false, true},
    {"sendrecv", "sendrecv_perf", false, false, false},
    {"gather", "gather_perf", false, true, true},
    {"scatter", "scatter_perf", false, true, true},
    {"hypercube", "hypercube_perf", false, false, true},
}};

}  // namespace

const CollectiveInfo& info(Collective c) {
  return kTable.at(static_cast<std::size_t>(c));
}

const std::vector<Collective>& all_collectives() {
  static const std::vector<Collective> all{Collective::all_reduce,     Collective::all_gather,
                                           Collective::reduce_scatter, Collective::broadcast,
                                           Collective::reduce,         Collective::alltoall,
                                           Collective::sendrecv,       Collective::gather,
                                           Collective::scatter,        Collective::hypercube};
  return all;
}

Collective collective_from_string(std::string_view s) {
  for (Collective c : all_collectives()) {
    std::string plain;
    for (char ch : info(c).name) {
      if (ch != '_') plain += ch;
    }
    if (s == info(c).name || s == plain || s == info(c).perf_name) return c;
  }
  throw InputError(fmt::format(
      "--collective: unknown collective '{}' (all_reduce, all_gather, reduce_scatter, broadcast, "
      "reduce, alltoall, sendrecv, gather, scatter, hypercube)",
      s));
}

double busbw_factor(Collective c, int ranks) {
  return bus_bandwidth_factor(info(c).name, ranks).value_or(1.0);
}

double algbw_gbps(std::size_t bytes, double time_us) {
  if (time_us <= 0) return 0;
  return static_cast<double>(bytes) / (time_us * 1e-6) / 1e9;
}

double algbw_share(Collective c, int ranks) {
  return algorithm_bandwidth_share(info(c).name, ranks).value_or(1.0);
}

std::optional<std::string> rank_count_refusal(Collective c, int ranks) {
  if (c != Collective::hypercube || (ranks > 0 && std::has_single_bit(unsigned(ranks))))
    return std::nullopt;
  return fmt::format("hypercube needs a power-of-two rank count, not {}", ranks);
}

std::vector<HypercubeStep> hypercube_steps(int rank, int ranks) {
  std::vector<HypercubeStep> steps;
  for (int mask = 1; mask < ranks; mask <<= 1) {
    const auto held = static_cast<std::size_t>(rank & ~(mask - 1));
    steps.push_back(
        {rank ^ mask, held, held ^ static_cast<std::size_t>(mask), static_cast<std::size_t>(mask)});
  }
  return steps;
}

bool input_is_own_output_block(Collective c) {
  return c == Collective::all_gather || c == Collective::gather || c == Collective::hypercube;
}

BufferCounts buffer_counts(Collective c, std::size_t count, int ranks) {
  const auto n = static_cast<std::size_t>(ranks);
  switch (c) {
    case Collective::all_gather:
    case Collective::gather:
    case Collective::hypercube:
      return {count / n, count};
    case Collective::reduce_scatter:
    case Collective::scatter:
      return {count, count / n};
    default:
      return {count, count};
  }
}

std::size_t usable_count(Collective c, std::size_t count, int ranks) {
  if (!info(c).splits_by_ranks) return count;
  const auto n = static_cast<std::size_t>(ranks);
  return count / n * n;
}

}  // namespace perfgate::collectives

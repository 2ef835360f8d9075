#include "perfgate/collectives/data_pattern.hpp"

#include <cmath>

namespace perfgate::collectives {
namespace {

std::size_t block(const CaseShape& s) {
  return s.count / static_cast<std::size_t>(s.ranks);
}

double reduced(const CaseShape& s, std::size_t send_index) {
  double acc = input_value(s, 0, send_index);
  for (int r = 1; r < s.ranks; ++r) acc = combine(s.op, acc, input_value(s, r, send_index));
  return s.op == ReduceOp::avg ? acc / s.ranks : acc;
}

}  // namespace

double input_value(const CaseShape& s, int rank, std::size_t index) {
  const auto r = static_cast<std::size_t>(rank);
  // Products stay powers of two (exact everywhere); other values are 1..8 (exact even in fp8).
  if (info(s.collective).reduces && s.op == ReduceOp::prod) return (index + r) % 4 == 0 ? 2.0 : 1.0;
  return 1.0 + static_cast<double>((index + 3 * r) % 8);
}

double expected_value(const CaseShape& s, int rank, std::size_t index) {
  const auto r = static_cast<std::size_t>(rank);
  switch (s.collective) {
    case Collective::all_reduce:
    case Collective::reduce:
      return reduced(s, index);
    case Collective::reduce_scatter:
      return reduced(s, r * block(s) + index);
    case Collective::all_gather:
      return input_value(s, static_cast<int>(index / block(s)), index % block(s));
    case Collective::broadcast:
      return input_value(s, s.root, index);
    case Collective::alltoall:
      return input_value(s, static_cast<int>(index / block(s)), r * block(s) + index % block(s));
    case Collective::sendrecv:
      return input_value(s, (rank - 1 + s.ranks) % s.ranks, index);
  }
  return 0;
}

bool has_output(const CaseShape& s, int rank) {
  return s.collective != Collective::reduce || rank == s.root;
}

std::size_t count_wrong(const CaseShape& s, int rank, std::span<const double> output) {
  if (!has_output(s, rank)) return 0;
  const double relative = type_epsilon(s.dtype) * s.ranks;
  std::size_t wrong = 0;
  for (std::size_t i = 0; i < output.size(); ++i) {
    const double want = expected_value(s, rank, i);
    if (!(std::fabs(output[i] - want) <= relative * std::fabs(want))) ++wrong;
  }
  return wrong;
}

}  // namespace perfgate::collectives

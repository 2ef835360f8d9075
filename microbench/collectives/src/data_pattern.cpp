#include "perfgate/collectives/data_pattern.hpp"

#include <algorithm>
#include <cmath>
#include <vector>

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

double case_buffer_bytes(const CaseShape& s) {
  const BufferCounts counts = buffer_counts(s.collective, s.count, s.ranks);
  return (double(counts.send) + double(std::max(counts.send, counts.recv))) *
         double(type_size(s.dtype));
}

double input_value(const CaseShape& s, int rank, std::size_t index) {
  const auto r = static_cast<std::size_t>(rank), n = static_cast<std::size_t>(s.ranks);
  if (info(s.collective).reduces && s.op != ReduceOp::min && s.op != ReduceOp::max) {
    // Sums and products: two ranks contribute to each element (as nccl-tests keeps its sums
    // exact), with 1, 2 or 4 to a sum (at most 8: exact even in fp8 e5m2, at every step of any
    // reduction order) and 2 to a product (at most 4); the others add 0 or multiply by 1.
    const bool contributes = r == index % n || r == (index + 1) % n;
    if (s.op == ReduceOp::prod) return contributes && (index + r) % 2 == 0 ? 2.0 : 1.0;
    return contributes ? static_cast<double>(1u << ((index + r) % 3)) : 0.0;
  }
  return 1.0 + static_cast<double>((index + 3 * r) % 8);  // 1..8: exact in every datatype
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

std::size_t count_wrong(const CaseShape& s, int rank, std::span<const double> output,
                        std::size_t first) {
  if (!has_output(s, rank)) return 0;
  // Every expected value is exact in the datatype, and so is an average over a power-of-two
  // number of ranks; over others, dividing by n rounds: 2 units in the last place (as
  // nccl-tests allows its averages).
  const bool power_of_two = (s.ranks & (s.ranks - 1)) == 0;
  const bool rounded = info(s.collective).reduces && s.op == ReduceOp::avg && !power_of_two;
  const double relative = rounded ? 2 * type_epsilon(s.dtype) : 0.0;
  std::size_t wrong = 0;
  for (std::size_t i = 0; i < output.size(); ++i) {
    const double want = expected_value(s, rank, first + i);
    if (!(std::fabs(output[i] - want) <= relative * std::fabs(want))) ++wrong;
  }
  return wrong;
}

void encode_input(const CaseShape& s, int rank, std::size_t first, std::span<std::byte> out) {
  const std::size_t size = type_size(s.dtype);
  std::vector<double> values;
  for_each_piece(out.size() / size, [&](std::size_t begin, std::size_t n) {
    values.resize(n);
    for (std::size_t i = 0; i < n; ++i) values[i] = input_value(s, rank, first + begin + i);
    encode_array(s.dtype, values, out.subspan(begin * size, n * size));
  });
}

std::size_t count_wrong_encoded(const CaseShape& s, int rank, std::size_t first,
                                std::span<const std::byte> out) {
  const std::size_t size = type_size(s.dtype);
  std::size_t wrong = 0;
  for_each_piece(out.size() / size, [&](std::size_t begin, std::size_t n) {
    wrong += count_wrong(s, rank, decode_array(s.dtype, out.subspan(begin * size, n * size)),
                         first + begin);
  });
  return wrong;
}

}  // namespace perfgate::collectives

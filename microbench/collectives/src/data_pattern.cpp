#include "perfgate/collectives/data_pattern.hpp"

#include <algorithm>
#include <cmath>
#include <vector>

namespace perfgate::collectives {
namespace {

std::size_t block(const CaseShape& s) {
  return s.count / static_cast<std::size_t>(s.ranks);
}

bool sum_or_product(const CaseShape& s) {
  return info(s.collective).reduces && s.op != ReduceOp::min && s.op != ReduceOp::max;
}

// Sums and products: two ranks contribute to each element, i mod n and i + 1 mod n (as
// nccl-tests keeps its sums exact), with 1, 2 or 4 to a sum (at most 8: exact even in fp8 e5m2,
// at every step of any reduction order) and 2 or 1 to a product (at most 4); the others add 0
// or multiply by 1.
double contribution(ReduceOp op, std::size_t index, std::size_t rank) {
  if (op == ReduceOp::prod) return (index + rank) % 2 == 0 ? 2.0 : 1.0;
  return static_cast<double>(1u << ((index + rank) % 3));
}

// The reduction over every rank of element `i`, in O(1) rather than one input per rank (a
// check of 1 GiB of floats over 64 ranks would otherwise compute 17 G inputs on each rank).
// Sums and products: only the two contributing ranks count. Min and max: rank r holds 1 + (i + 3r)
// mod 8, and as 3 is invertible mod 8 the first eight ranks already hold every value any rank does.
double reduced(const CaseShape& s, std::size_t i) {
  const auto n = static_cast<std::size_t>(s.ranks);
  if (s.op == ReduceOp::min || s.op == ReduceOp::max) {
    double acc = input_value(s, 0, i);
    for (int r = 1; r < static_cast<int>(std::min<std::size_t>(n, 8)); ++r)
      acc = combine(s.op, acc, input_value(s, r, i));
    return acc;
  }
  const std::size_t first = i % n, second = (i + 1) % n;
  double acc = contribution(s.op, i, first);
  if (second != first) acc = combine(s.op, acc, contribution(s.op, i, second));
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
  if (sum_or_product(s)) {
    const bool contributes = r == index % n || r == (index + 1) % n;
    if (contributes) return contribution(s.op, index, r);
    return s.op == ReduceOp::prod ? 1.0 : 0.0;
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

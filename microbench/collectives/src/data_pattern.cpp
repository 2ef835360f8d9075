#include "perfgate/collectives/data_pattern.hpp"

#include <algorithm>
#include <cmath>
#include <numeric>
#include <span>
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
// or multiply by 1. A premultiplied sum gets 1 or 2, which its scalar makes at most 4 (a sum's
// 4, doubled, beside a 1 would make 9, which e5m2 cannot hold).
double contribution(ReduceOp op, std::size_t index, std::size_t rank) {
  if (op == ReduceOp::prod) return (index + rank) % 2 == 0 ? 2.0 : 1.0;
  if (op == ReduceOp::mulsum) return (index + rank) % 2 == 0 ? 1.0 : 2.0;
  return static_cast<double>(1u << ((index + rank) % 3));
}

// A contributing rank's input as the reduction adds it: times its premultiplier.
double premultiplied(const CaseShape& s, std::size_t index, std::size_t rank) {
  return contribution(s.op, index, rank) * premul_scalar(s, static_cast<int>(rank));
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
  double acc = premultiplied(s, i, first);
  if (second != first) acc = combine(s.op, acc, premultiplied(s, i, second));
  if (s.op != ReduceOp::avg) return acc;
  // An integer average is the sum divided in integer arithmetic: truncated (NCCL's, and the
  // MPI backend's conversion back into the type).
  return is_integer(s.dtype) ? std::trunc(acc / s.ranks) : acc / s.ranks;
}

// A pattern value depends on its index only through the index mod n (the ranks contributing
// to a sum or product), mod 3 and mod 2 (their contributions) and mod 8 (every other input), so
// inputs and reductions repeat every lcm(n, 24) elements.
std::size_t pattern_period(const CaseShape& s) {
  return std::lcm(static_cast<std::size_t>(s.ranks), std::size_t{24});
}

// out[k] = value(first + k): one period computed, every later element copied from a period
// back (a buffer of a few GiB is checked at copy speed, not at a few divisions an element).
template <class Value>
void fill_periodic(std::size_t period, std::size_t first, std::span<double> out, Value value) {
  const std::size_t computed = std::min(period, out.size());
  for (std::size_t k = 0; k < computed; ++k) out[k] = value(first + k);
  for (std::size_t k = computed; k < out.size(); ++k) out[k] = out[k - period];
}

void input_values(const CaseShape& s, int rank, std::size_t first, std::span<double> out) {
  fill_periodic(pattern_period(s), first, out,
                [&](std::size_t i) { return input_value(s, rank, i); });
}

// Elements [first, first + out.size()) of the receive buffer of `rank`.
void expected_values(const CaseShape& s, int rank, std::size_t first, std::span<double> out) {
  const auto r = static_cast<std::size_t>(rank);
  const auto reduced_from = [&](std::size_t index) {
    fill_periodic(pattern_period(s), index, out, [&](std::size_t i) { return reduced(s, i); });
  };
  switch (s.collective) {
    case Collective::all_reduce:
    case Collective::reduce:
      return reduced_from(first);
    case Collective::reduce_scatter:
      return reduced_from(r * block(s) + first);
    case Collective::broadcast:
      return input_values(s, s.root, first, out);
    case Collective::sendrecv:
      return input_values(s, (rank - 1 + s.ranks) % s.ranks, first, out);
    case Collective::scatter:
      return input_values(s, s.root, r * block(s) + first, out);
    case Collective::all_gather:
    case Collective::gather:
    case Collective::alltoall: {
      // Block q of the receive buffer comes from rank q: its element k is rank q's input k
      // (all_gather, gather) or rank·block + k (alltoall, the block rank q sends to this rank).
      const std::size_t b = block(s);
      if (b == 0) return;  // fewer elements than ranks: an empty receive buffer
      for (std::size_t k = 0; k < out.size();) {
        const std::size_t index = first + k, within = index % b;
        const std::size_t n = std::min(out.size() - k, b - within);
        const std::size_t source = (s.collective == Collective::alltoall ? r * b : 0) + within;
        input_values(s, static_cast<int>(index / b), source, out.subspan(k, n));
        k += n;
      }
      return;
    }
  }
}

// count_wrong with the expected values in `want`, a buffer the caller keeps across pieces.
std::size_t count_wrong_against(const CaseShape& s, int rank, std::span<const double> output,
                                std::size_t first, std::vector<double>& want) {
  if (!has_output(s, rank)) return 0;
  // Every expected value is exact in the datatype, and so is an average over a power-of-two
  // number of ranks or of integers (truncated); over others, dividing by n rounds: 2 units in
  // the last place (as nccl-tests allows its averages).
  const bool power_of_two = (s.ranks & (s.ranks - 1)) == 0;
  const bool rounded =
      info(s.collective).reduces && s.op == ReduceOp::avg && !power_of_two && !is_integer(s.dtype);
  const double relative = rounded ? 2 * type_epsilon(s.dtype) : 0.0;
  want.resize(output.size());
  expected_values(s, rank, first, want);
  std::size_t wrong = 0;
  for (std::size_t i = 0; i < output.size(); ++i) {
    if (!(std::fabs(output[i] - want[i]) <= relative * std::fabs(want[i]))) ++wrong;
  }
  return wrong;
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

double premul_scalar(const CaseShape& s, int rank) {
  return s.op == ReduceOp::mulsum && info(s.collective).reduces && rank % 2 != 0 ? 2.0 : 1.0;
}

double expected_value(const CaseShape& s, int rank, std::size_t index) {
  double value = 0;
  expected_values(s, rank, index, std::span<double>(&value, 1));
  return value;
}

bool has_output(const CaseShape& s, int rank) {
  const bool to_root = s.collective == Collective::reduce || s.collective == Collective::gather;
  return !to_root || rank == s.root;
}

std::size_t count_wrong(const CaseShape& s, int rank, std::span<const double> output,
                        std::size_t first) {
  std::vector<double> want;
  return count_wrong_against(s, rank, output, first, want);
}

void encode_input(const CaseShape& s, int rank, std::size_t first, std::span<std::byte> out) {
  const std::size_t size = type_size(s.dtype);
  std::vector<double> values;
  for_each_piece(out.size() / size, [&](std::size_t begin, std::size_t n) {
    values.resize(n);
    input_values(s, rank, first + begin, values);
    encode_array(s.dtype, values, out.subspan(begin * size, n * size));
  });
}

std::size_t count_wrong_encoded(const CaseShape& s, int rank, std::size_t first,
                                std::span<const std::byte> out) {
  const std::size_t size = type_size(s.dtype);
  std::size_t wrong = 0;
  std::vector<double> got, want;
  for_each_piece(out.size() / size, [&](std::size_t begin, std::size_t n) {
    got.resize(n);
    decode_array(s.dtype, out.subspan(begin * size, n * size), got);
    wrong += count_wrong_against(s, rank, got, first + begin, want);
  });
  return wrong;
}

}  // namespace perfgate::collectives

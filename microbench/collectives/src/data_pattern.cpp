#include "perfgate/collectives/data_pattern.hpp"

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdint>
#include <numeric>
#include <span>
#include <vector>

namespace perfgate::collectives {
namespace {

std::size_t block(const CaseShape& s) {
  return s.count / static_cast<std::size_t>(s.ranks);
}

// Values that are moved or selected, never combined (a copy's inputs, a min's or max's
// contributions), may be any the datatype holds exactly: 64 of them, where 1..8 (which a sum's
// contributions need to stay exact in fp8 e5m2) let a misplaced chunk read the same values one
// time in 8. Floats: +-{1, 3, 5, 7} x 2^e for e in -4..3, exact in e5m2's two mantissa bits and
// e4m3's normal range, distinct (an odd part and a power of two are unique), none zero (the
// value a buffer is cleared to) and all within +-64. Integers: 1..64, within int8.
constexpr std::size_t kDistinctValues = 64;

double distinct_value(DataType t, std::size_t k) {
  if (is_integer(t)) return 1.0 + static_cast<double>(k);
  const double odd = 1.0 + 2.0 * static_cast<double>((k >> 1) & 3);
  const double magnitude = std::ldexp(odd, static_cast<int>(k >> 3) - 4);
  return (k & 1) != 0 ? -magnitude : magnitude;
}

// `magnitude`, negated where `bit` of j is set and the case's type has a sign.
double signed_by_bit(const CaseShape& s, std::size_t j, int bit, double magnitude) {
  return ((j >> bit) & 1) != 0 && !is_unsigned(s.dtype) ? -magnitude : magnitude;
}

// A sum's two contributions at j carry one factor, +-2^(j mod 4), negative where bit 2 of j is
// set: their sum (at most 8) times it stays exact (at most 64, within int8 and e4m3), and a
// sum's values cycle through lcm(n, 24), not lcm(n, 3).
double sum_factor(const CaseShape& s, std::size_t j) {
  return signed_by_bit(s, j, 2, static_cast<double>(1u << (j % 4)));
}

// Reductions: two ranks contribute to each element, j mod n and j + 1 mod n (as nccl-tests
// keeps its sums exact), and every other rank holds the op's neutral value, so the result
// varies along the buffer at any rank count and costs two inputs to compute.
// - A sum: 1, 2 or 4 from each (at most 8: exact even in fp8 e5m2, at every step of any
//   reduction order), times the sum's factor of j.
// - A product: +-1 or +-2, the first contributor's from bits 0 and 2 of j and the second's
//   from bits 1 and 3 (at most 4).
// - A premultiplied sum: 1 or 2 from bits 0 and 1 (at most 6 after the scalar's 2), times the
//   sum's factor of j / 4.
// - A min or max: distinct value j mod 64, the second's 3 past the first's, so that either may
//   hold the result.
// Until 2026-12-07 a min's or max's values were 1..8, 3 apart mod 8, and sums had no factor
// nor products signs: a misplaced 8-element block of a 2-rank reduce_scatter passed whole in
// 100 of 256 draws for a sum, 64 for a product or premultiplied sum, 32 for a min or max.
// Products and min/max read j, not j + rank, which is a function of j where 2, 4 or 8 divide n.
// `j` is the pattern index below.
double contribution(const CaseShape& s, std::size_t j, std::size_t rank) {
  const bool second = rank != j % static_cast<std::size_t>(s.ranks);
  const double bit = 1.0 + static_cast<double>((j >> (second ? 1 : 0)) & 1);
  switch (s.op) {
    case ReduceOp::sum:
    case ReduceOp::avg:
      return static_cast<double>(1u << ((j + rank) % 3)) * sum_factor(s, j);
    case ReduceOp::mulsum:
      return bit * sum_factor(s, j >> 2);  // bits 0 and 1 of j chose the bits
    case ReduceOp::prod:
      return signed_by_bit(s, j, second ? 3 : 2, bit);  // each contributor's own sign
    case ReduceOp::min:
    case ReduceOp::max:
      break;
  }
  return distinct_value(s.dtype, (j + (second ? 3 : 0)) % kDistinctValues);
}

// What a rank that does not contribute holds: the op's identity, or for a min (max) a value
// no less (no more) than any contribution (every distinct value lies within +-64, an integer
// one within 1..64).
double neutral(const CaseShape& s) {
  const auto bound = static_cast<double>(kDistinctValues);
  switch (s.op) {
    case ReduceOp::sum:
    case ReduceOp::avg:
    case ReduceOp::mulsum:
      return 0.0;
    case ReduceOp::min:
      return bound;
    case ReduceOp::max:
      return is_integer(s.dtype) ? 1.0 : -bound;
    case ReduceOp::prod:
      break;
  }
  return 1.0;
}

// Rank r's input at pattern index j. Copies: distinct value (j + 3r) mod 64, different on any
// 64 consecutive ranks.
double input_at(const CaseShape& s, std::size_t rank, std::size_t j) {
  const auto n = static_cast<std::size_t>(s.ranks);
  if (!info(s.collective).reduces) return distinct_value(s.dtype, (j + 3 * rank) % kDistinctValues);
  const bool contributes = rank == j % n || rank == (j + 1) % n;
  return contributes ? contribution(s, j, rank) : neutral(s);
}

// A contributing rank's input as the reduction adds it: times its premultiplier.
double premultiplied(const CaseShape& s, std::size_t j, std::size_t rank) {
  return contribution(s, j, rank) * premul_scalar(s, static_cast<int>(rank));
}

// The reduction over every rank at pattern index j, from its two contributing ranks: O(1)
// rather than one input per rank (a check of 1 GiB of floats over 64 ranks would otherwise
// compute 17 G inputs on each rank).
double reduced_at(const CaseShape& s, std::size_t j) {
  const auto n = static_cast<std::size_t>(s.ranks);
  const std::size_t first = j % n, second = (j + 1) % n;
  double acc = premultiplied(s, j, first);
  if (second != first) acc = combine(s.op, acc, premultiplied(s, j, second));
  if (s.op != ReduceOp::avg) return acc;
  // An integer average is the sum divided in integer arithmetic: truncated (NCCL's, and the
  // MPI backend's conversion back into the type).
  return is_integer(s.dtype) ? std::trunc(acc / s.ranks) : acc / s.ranks;
}

// A reduction's input_at and reduced_at depend on j only through j mod n (the contributing
// ranks) and their contributions': mod 3 and 8 (a sum's and its factor), mod 16 (a product's
// bits), mod 32 (a premultiplied sum's), mod 64 (a min's or max's); a copy's inputs repeat
// every 64.
constexpr std::size_t kCombinedCycle = std::lcm(std::lcm(3, 8), std::lcm(16, 32));  // 96

std::size_t pattern_period(const CaseShape& s) {
  if (!info(s.collective).reduces) return kDistinctValues;
  const bool selects = s.op == ReduceOp::min || s.op == ReduceOp::max;
  const std::size_t cycle = selects ? kDistinctValues : kCombinedCycle;
  return std::lcm(static_cast<std::size_t>(s.ranks), cycle);  // at most 96 x INT_MAX
}

// A buffer's element i does not read pattern index i, which would repeat every period: every
// chunk of kChunk elements starts at a place of its own in the period, drawn by a hash of the
// chunk's number (and of the rank's group of eight, below). Then a block moved by any distance
// (alltoall's or scatter's block for another rank, a block of every eighth rank's data in an
// all_gather over 16 ranks, an offset by a multiple of the period) reads other values in most
// chunks, where a period of 24 let a block moved by a multiple of it pass whole. Eight: inside
// a chunk a copy's, min's or max's values do not repeat (they cycle through 64), so a block
// moved within one always reads other values (with chunks of 16 and values 1..8, a block of 8
// moved by 8 read the same ones), and a hash every 8 elements costs little. A block moved to
// another chunk reads the same values where the two chunks start at the same place mod the
// values' cycle: for a copy, min or max 1 chunk in 64 or fewer (1 in 8 until 2026-12-07, when
// their values were 1..8).
constexpr std::size_t kChunk = 8;

std::uint64_t mix(std::uint64_t x) {  // SplitMix64's finaliser
  x += 0x9e3779b97f4a7c15u;
  x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9u;
  x = (x ^ (x >> 27)) * 0x94d049bb133111ebu;
  return x ^ (x >> 31);
}

// Where `chunk` starts in the period for `rank`. A reduction's ranks must agree on which two of
// them contribute to an element, so they share every start; a copy's ranks share them by
// eight consecutive ranks (which 3r keeps apart), and other groups have starts of their own.
struct ChunkStart {
  std::size_t period;
  std::uint64_t group_key;
  // The hash's top 32 bits scaled to [0, period) by a multiply, not a division (a division a
  // chunk cost a fill as much as the rest of it). Below period whatever it is; even below
  // 2^32 at a period past 2^32 (a reduction over some 2^25 ranks), where the product wraps.
  std::size_t operator()(std::size_t chunk) const {
    return static_cast<std::size_t>(((mix(group_key + chunk) >> 32) * period) >> 32);
  }
};

ChunkStart chunk_start(const CaseShape& s, std::size_t rank) {
  const std::uint64_t group = info(s.collective).reduces ? 0 : rank / 8;
  return {pattern_period(s), mix(group ^ (std::uint64_t{s.draw} << 32))};
}

// out[k] = at(j) for buffer element first + k, with j its pattern index (below one period plus a
// chunk). A long piece computes one period and copies each chunk's run from it, so a buffer of a
// few GiB is written and checked at about copy speed, not at a few divisions an element.
template <class At>
void fill_pattern(const ChunkStart& start, std::size_t first, std::span<double> out, At at) {
  const std::size_t period = start.period;
  std::vector<double> table;
  if (out.size() > period) {
    table.resize(period + kChunk);
    for (std::size_t j = 0; j < table.size(); ++j) table[j] = at(j);
  }
  std::size_t chunk = first / kChunk, within = first % kChunk;
  std::size_t chunk_at = (first - within) % period;  // the chunk's first index, mod the period
  for (std::size_t k = 0; k < out.size(); ++chunk, within = 0) {
    const std::size_t n = std::min(out.size() - k, kChunk - within);
    std::size_t j = chunk_at + start(chunk);
    if (j >= period) j -= period;
    j += within;
    if (table.empty()) {
      for (std::size_t m = 0; m < n; ++m) out[k + m] = at(j + m);
    } else if (n == kChunk) {
      // A whole chunk: a copy of constant length, which the compiler unrolls (a fill with only
      // the general copy below wrote 0.52-1.22 G elements/s where this writes 0.66-1.91 G).
      std::copy_n(table.begin() + static_cast<std::ptrdiff_t>(j), kChunk, out.begin() + k);
    } else {
      std::copy_n(table.begin() + static_cast<std::ptrdiff_t>(j), n, out.begin() + k);
    }
    k += n;
    chunk_at += kChunk;
    if (chunk_at >= period) chunk_at -= period;
  }
}

void input_values(const CaseShape& s, int rank, std::size_t first, std::span<double> out) {
  const auto r = static_cast<std::size_t>(rank);
  fill_pattern(chunk_start(s, r), first, out, [&](std::size_t j) { return input_at(s, r, j); });
}

// Elements [first, first + out.size()) of the receive buffer of `rank`.
void expected_values(const CaseShape& s, int rank, std::size_t first, std::span<double> out) {
  const auto r = static_cast<std::size_t>(rank);
  // A reduction reads every rank's element at one pattern index: rank 0's, as every rank's.
  const auto reduced_from = [&](std::size_t index) {
    fill_pattern(chunk_start(s, 0), index, out, [&](std::size_t j) { return reduced_at(s, j); });
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
    case Collective::hypercube:
    case Collective::alltoall: {
      // Block q of the receive buffer comes from rank q: its element k is rank q's input k
      // (all_gather, gather, hypercube) or rank·block + k (alltoall, the block rank q sends to
      // this rank).
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

// How far a float average over a rank count that is not a power of two may lie from its exact
// value. NCCL multiplies every input by 1/n stored in the datatype (converted through float)
// and sums; the contributions are powers of two, so the products are exact. MPI
// implementations sum exactly and divide. So the error is 1/n's, times the n·want the inputs
// sum to (none for MPI), and the result's rounding: half a unit in the last place, or half the
// subnormals' spacing, with a rounding through a wider type on the way (NCCL sums fp8 in half,
// the MPI backend divides in double and converts through float). Beyond 64 ranks 1/n is
// subnormal in e4m3 and NCCL's average is far off (nearly doubled over 1000 ranks): what it
// computes is what the check accepts. Twice the datatype's epsilon, relative, used until
// 2026-12-06, let a halved e5m2 average pass and refused NCCL's e4m3 average over 1000 ranks.
class AverageTolerance {
 public:
  explicit AverageTolerance(const CaseShape& s)
      : unit_(type_epsilon(s.dtype) / 2),
        wider_unit_(wider_unit_roundoff(s.dtype)),
        smallest_(type_smallest_subnormal(s.dtype)) {
    const double reciprocal = 1.0 / s.ranks;
    std::array<std::byte, 8> stored{};
    encode_array(s.dtype, std::span<const double>(&reciprocal, 1), stored);
    scalar_error_ = s.ranks * std::fabs(decode_array(s.dtype, stored).front() - reciprocal);
  }
  double operator()(double want) const {
    const double w = std::fabs(want), scaled = w * (1 + scalar_error_);
    return w * scalar_error_ + std::max(unit_ * scaled, smallest_ / 2) + wider_unit_ * scaled;
  }

 private:
  // Half the epsilon of the type a value is rounded through before it is stored.
  static double wider_unit_roundoff(DataType t) {
    if (t == DataType::f8e4m3 || t == DataType::f8e5m2) return std::ldexp(1.0, -11);  // half
    if (t == DataType::bf16 || t == DataType::f16) return std::ldexp(1.0, -24);       // float
    return std::ldexp(1.0, -53);                                                      // double
  }
  double unit_, wider_unit_, smallest_, scalar_error_ = 0;
};

// count_wrong with the expected values in `want`, a buffer the caller keeps across pieces.
std::size_t count_wrong_against(const CaseShape& s, int rank, std::span<const double> output,
                                std::size_t first, std::vector<double>& want) {
  if (!has_output(s, rank)) return 0;
  // Every expected value is exact in the datatype, and so is an average over a power-of-two
  // number of ranks or of integers (truncated); over others, dividing by n rounds.
  const bool power_of_two = (s.ranks & (s.ranks - 1)) == 0;
  const bool rounded =
      info(s.collective).reduces && s.op == ReduceOp::avg && !power_of_two && !is_integer(s.dtype);
  want.resize(output.size());
  expected_values(s, rank, first, want);
  std::size_t wrong = 0;
  if (!rounded) {
    for (std::size_t i = 0; i < output.size(); ++i) wrong += !(output[i] == want[i]);
    return wrong;
  }
  const AverageTolerance tolerance(s);
  for (std::size_t i = 0; i < output.size(); ++i)
    wrong += !(std::fabs(output[i] - want[i]) <= tolerance(want[i]));
  return wrong;
}

// The staging of encode_input and count_wrong_encoded, a piece each, kept from call to call: a
// piece's 8 MiB vector allocated afresh in every call was mapped by malloc and faulted in page
// by page, most of a check's time (a 16 Mi-element float check took 60 ms, not 17).
struct Staging {
  std::vector<double> values;    // the piece as doubles: inputs to encode, or an output decoded
  std::vector<double> expected;  // what the output's piece must hold
};

Staging& staging() {
  thread_local Staging kept;
  return kept;
}

}  // namespace

double case_buffer_bytes(const CaseShape& s) {
  const BufferCounts counts = buffer_counts(s.collective, s.count, s.ranks);
  return (double(counts.send) + double(std::max(counts.send, counts.recv))) *
         double(type_size(s.dtype));
}

double input_value(const CaseShape& s, int rank, std::size_t index) {
  double value = 0;
  input_values(s, rank, index, std::span<double>(&value, 1));
  return value;
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
  std::vector<double>& values = staging().values;
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
  // Named references, not a structured binding: clang before 16 cannot capture a binding.
  Staging& stage = staging();
  std::vector<double>& got = stage.values;
  std::vector<double>& want = stage.expected;
  for_each_piece(out.size() / size, [&](std::size_t begin, std::size_t n) {
    got.resize(n);
    decode_array(s.dtype, out.subspan(begin * size, n * size), got);
    wrong += count_wrong_against(s, rank, got, first + begin, want);
  });
  return wrong;
}

}  // namespace perfgate::collectives

#include <algorithm>
#include <bit>
#include <cmath>
#include <span>

#include <catch2/catch.hpp>

#include "perfgate/collectives/data_pattern.hpp"

using namespace perfgate::collectives;

namespace {

// Hypercube's output on rank `rank`: every rank's buffer run through the backends' schedule
// (hypercube_steps), each exchange a send matched with the peer's receive; it checks that
// schedule, which must leave every rank with all_gather's output. Step `skip_step` (0, 1, ...)
// is left out: a fault that loses one exchange.
std::vector<double> run_hypercube(const CaseShape& s, int rank, int skip_step = -1) {
  const auto n = static_cast<std::size_t>(s.ranks);
  const std::size_t block = s.count / n;
  std::vector<std::vector<double>> held(n, std::vector<double>(block * n, 0.0));
  for (std::size_t r = 0; r < n; ++r)
    for (std::size_t i = 0; i < block; ++i) held[r][r * block + i] = input_value(s, int(r), i);
  for (int k = 0; k < std::countr_zero(n); ++k) {
    const std::vector<std::vector<double>> before = held;
    for (int r = 0; r < s.ranks; ++r) {
      const HypercubeStep step = hypercube_steps(r, s.ranks).at(std::size_t(k));
      const HypercubeStep back = hypercube_steps(step.peer, s.ranks).at(std::size_t(k));
      REQUIRE(back.peer == r);  // the peer sends what this rank receives, as much
      REQUIRE(back.sent == step.received);
      REQUIRE(back.blocks == step.blocks);
      if (k == skip_step) continue;
      std::copy_n(before[std::size_t(step.peer)].begin() + long(back.sent * block),
                  back.blocks * block, held[std::size_t(r)].begin() + long(step.received * block));
    }
  }
  return held[static_cast<std::size_t>(rank)];
}

// How a reduction is carried out: in exact arithmetic, or as a device does it, every partial
// result stored in the datatype, over the ranks in either order; an average summed and then
// divided (as MPI's), or, as NCCL's for floats, every input multiplied by 1/n stored in the
// datatype and the products summed.
enum class Reduction { exact, stored_forward, stored_reversed, premultiplied_average };

// What a correct implementation of `shape` leaves in rank `rank`'s receive buffer, computed
// by moving the inputs the way the collective's definition says (independently of expected_value).
std::vector<double> simulate(const CaseShape& s, int rank, Reduction how = Reduction::exact) {
  const std::size_t n = static_cast<std::size_t>(s.ranks), block = s.count / n;
  const auto store = [&](double v) {
    if (how == Reduction::exact) return v;
    std::vector<std::byte> raw(type_size(s.dtype));
    encode_array(s.dtype, std::span<const double>(&v, 1), raw);
    return decode_array(s.dtype, raw).front();
  };
  const auto reduce_at = [&](std::size_t i) {
    const auto nth = [&](int k) { return how == Reduction::stored_reversed ? s.ranks - 1 - k : k; };
    // NCCL's average: 1/n as a value of the datatype (through float, as NCCL converts it).
    const bool premultiplies =
        how == Reduction::premultiplied_average && s.op == ReduceOp::avg && !is_integer(s.dtype);
    const double average_scalar = premultiplies ? store(1.0 / s.ranks) : 1.0;
    // What rank r adds: its input, times its scalar for a premultiplied sum.
    const auto added = [&](int r) {
      return store(input_value(s, r, i) * premul_scalar(s, r) * average_scalar);
    };
    double acc = added(nth(0));
    for (int k = 1; k < s.ranks; ++k) acc = store(combine(s.op, acc, added(nth(k))));
    if (s.op != ReduceOp::avg || premultiplies) return store(acc);
    // An integer average divides in integer arithmetic: toward zero.
    return store(is_integer(s.dtype) ? std::trunc(acc / s.ranks) : acc / s.ranks);
  };
  std::vector<double> out;
  switch (s.collective) {
    case Collective::all_reduce:
    case Collective::reduce:
      for (std::size_t i = 0; i < s.count; ++i) out.push_back(reduce_at(i));
      break;
    case Collective::reduce_scatter:
      for (std::size_t i = 0; i < block; ++i)
        out.push_back(reduce_at(static_cast<std::size_t>(rank) * block + i));
      break;
    case Collective::all_gather:
      for (int r = 0; r < s.ranks; ++r)
        for (std::size_t i = 0; i < block; ++i) out.push_back(input_value(s, r, i));
      break;
    case Collective::broadcast:
      for (std::size_t i = 0; i < s.count; ++i) out.push_back(input_value(s, s.root, i));
      break;
    case Collective::alltoall:
      for (int r = 0; r < s.ranks; ++r)
        for (std::size_t i = 0; i < block; ++i)
          out.push_back(input_value(s, r, static_cast<std::size_t>(rank) * block + i));
      break;
    case Collective::sendrecv:
      for (std::size_t i = 0; i < s.count; ++i)
        out.push_back(input_value(s, (rank + s.ranks - 1) % s.ranks, i));
      break;
    case Collective::gather:
      // Only the root receives; another rank's buffer keeps the zeros it was cleared to.
      for (int r = 0; r < s.ranks; ++r)
        for (std::size_t i = 0; i < block; ++i)
          out.push_back(rank == s.root ? input_value(s, r, i) : 0.0);
      break;
    case Collective::scatter:
      for (std::size_t i = 0; i < block; ++i)
        out.push_back(input_value(s, s.root, static_cast<std::size_t>(rank) * block + i));
      break;
    case Collective::hypercube:
      out = run_hypercube(s, rank);
      break;
  }
  return out;
}

}  // namespace

TEST_CASE("a correct result has no wrong elements, a corrupted one is counted") {
  for (Collective c : all_collectives()) {
    for (ReduceOp op : all_reduce_ops()) {
      CaseShape s{c, DataType::f32, op, 1, 4, 32};
      for (int rank = 0; rank < 4; ++rank) {
        std::vector<double> out = simulate(s, rank);
        INFO(info(c).name << " " << op_name(op) << " rank " << rank);
        CHECK(count_wrong(s, rank, out) == 0);
        if (!has_output(s, rank)) continue;
        out[3] += 1;
        CHECK(count_wrong(s, rank, out) == 1);
      }
    }
  }
}

TEST_CASE("reductions are checked right at any rank count") {
  // expected_value folds the two contributing ranks in closed form; simulate() folds every
  // rank's input.
  for (Collective c : {Collective::all_reduce, Collective::reduce_scatter, Collective::reduce}) {
    for (ReduceOp op : all_reduce_ops()) {
      for (int ranks : {1, 2, 3, 5, 7, 8, 9, 16, 17, 24, 64}) {
        CaseShape s{c, DataType::f32, op, 0, ranks, static_cast<std::size_t>(ranks) * 24};
        std::vector<double> out = simulate(s, 0);
        INFO(info(c).name << " " << op_name(op) << " ranks " << ranks);
        CHECK(count_wrong(s, 0, out) == 0);
        for (std::size_t i = 0; i < out.size(); i += 5) out[i] = -out[i];
        CHECK(count_wrong(s, 0, out) == (out.size() + 4) / 5);
      }
    }
  }
}

TEST_CASE("a long piece, copied from a table of one period, agrees with elements taken alone") {
  // Buffers many periods of lcm(ranks, 24) long, read from offsets inside a period and past it,
  // at rank counts that divide 24, share a factor with it or none: every expected value and
  // input agrees with the one computed alone, and one wrong element far past the first period
  // counts.
  for (const int ranks : {1, 2, 3, 5, 7, 16, 25}) {
    for (const Collective c : all_collectives()) {
      if (rank_count_refusal(c, ranks)) continue;  // hypercube on 3, 5, 7, 25
      for (const ReduceOp op : all_reduce_ops()) {
        const CaseShape s{c,         DataType::f32, op,
                          ranks - 1, ranks,         static_cast<std::size_t>(ranks) * 1300};
        INFO(info(c).name << " " << op_name(op) << " ranks " << ranks);
        const int rank = ranks / 2;
        std::vector<double> out = simulate(s, rank);
        REQUIRE(!out.empty());
        CHECK(count_wrong(s, rank, out) == 0);
        for (const std::size_t from : {std::size_t{1}, std::size_t{599}, std::size_t{1301}}) {
          if (from >= out.size()) continue;
          CHECK(count_wrong(s, rank, std::span<const double>(out).subspan(from), from) == 0);
        }
        if (has_output(s, rank)) {
          out[out.size() - 7] += 1;
          CHECK(count_wrong(s, rank, out) == 1);
        }
        std::vector<double> inputs(s.count - 11);
        for (std::size_t k = 0; k < inputs.size(); ++k) inputs[k] = input_value(s, rank, 11 + k);
        std::vector<std::byte> direct(inputs.size() * 4), filled(inputs.size() * 4);
        encode_array(DataType::f32, inputs, direct);
        encode_input(s, rank, 11, filled);
        CHECK(filled == direct);
      }
    }
  }
}

TEST_CASE("inputs differ across ranks so that a wrong source is caught") {
  CaseShape s{Collective::sendrecv, DataType::f32, ReduceOp::sum, 0, 4, 16};
  std::vector<double> from_self = simulate(s, 2);
  for (std::size_t i = 0; i < from_self.size(); ++i) from_self[i] = input_value(s, 2, i);
  CHECK(count_wrong(s, 2, from_self) == from_self.size());
}

TEST_CASE("narrow types tolerate their own rounding only") {
  CaseShape s{Collective::all_reduce, DataType::bf16, ReduceOp::avg, 0, 3, 8};
  std::vector<double> out = simulate(s, 0);
  for (double& v : out) v = decode(DataType::bf16, encode(DataType::bf16, static_cast<float>(v)));
  CHECK(count_wrong(s, 0, out) == 0);
  out[0] *= 1.1;
  CHECK(count_wrong(s, 0, out) == 1);
}

TEST_CASE("NaN outputs are wrong") {
  CaseShape s{Collective::all_reduce, DataType::f32, ReduceOp::sum, 0, 2, 2};
  std::vector<double> out{std::nan(""), expected_value(s, 0, 1)};
  CHECK(count_wrong(s, 0, out) == 1);
}

TEST_CASE("every expected value is exact, so narrow types and many ranks still catch errors") {
  // Sums and products stay exact at every step of a reduction carried out in the datatype, in
  // either rank order, and so do averages over a power of two ranks; half the expected value,
  // or nothing at all, must be wrong in fp8 and bf16 at any rank count (a tolerance that grew
  // with the ranks once let both pass).
  for (const DataType t : {DataType::f8e5m2, DataType::f8e4m3, DataType::bf16, DataType::f16}) {
    for (const int ranks : {2, 3, 4, 6, 8, 128}) {
      for (const ReduceOp op : {ReduceOp::sum, ReduceOp::prod, ReduceOp::avg, ReduceOp::mulsum}) {
        CaseShape s{Collective::all_reduce, t, op, 0, ranks, 256};
        INFO(type_name(t) << " " << op_name(op) << " ranks " << ranks);
        const std::vector<double> out = simulate(s, 0);
        const bool exact = op != ReduceOp::avg || (ranks & (ranks - 1)) == 0;
        for (const Reduction how : {Reduction::stored_forward, Reduction::stored_reversed,
                                    Reduction::premultiplied_average}) {
          const std::vector<double> stored = simulate(s, 0, how);
          if (exact) CHECK(stored == out);
          CHECK(count_wrong(s, 0, stored) == 0);
        }
        std::vector<double> half = out, zero(out.size(), 0.0);
        for (double& v : half) v /= 2;
        CHECK(count_wrong(s, 0, half) == out.size());
        CHECK(count_wrong(s, 0, zero) == out.size());
      }
    }
  }
}

TEST_CASE("float averages pass as NCCL and MPI round them at any rank count, halved ones fail") {
  for (const DataType t : {DataType::f8e5m2, DataType::f8e4m3, DataType::bf16, DataType::f16,
                           DataType::f32, DataType::f64}) {
    for (const int ranks : {3, 5, 6, 7, 12, 24, 96, 100, 384, 1000}) {
      for (const Collective c : {Collective::all_reduce, Collective::reduce_scatter}) {
        CaseShape s{c, t, ReduceOp::avg, 0, ranks, std::size_t(ranks) * 24};
        INFO(type_name(t) << " " << info(c).name << " ranks " << ranks);
        const std::vector<double> summed = simulate(s, 1, Reduction::stored_forward);
        const std::vector<double> nccl = simulate(s, 1, Reduction::premultiplied_average);
        CHECK(count_wrong(s, 1, summed) == 0);
        CHECK(count_wrong(s, 1, nccl) == 0);
        std::vector<double> half = simulate(s, 1);
        for (double& v : half) v /= 2;
        // Beyond 64 ranks 1/n is subnormal in e4m3: over 1000 NCCL's average is nearly
        // doubled (1/1000 rounds to 2^-9), and a halved one cannot be told from it.
        if (t != DataType::f8e4m3 || ranks < 1000) CHECK(count_wrong(s, 1, half) == half.size());
      }
    }
  }
  // What the check must accept: NCCL's e4m3 average over 1000 ranks is further from the exact
  // one than twice the type's epsilon, the tolerance before 2026-12-06.
  const CaseShape s{Collective::all_reduce, DataType::f8e4m3, ReduceOp::avg, 0, 1000, 1000 * 24};
  const std::vector<double> exact = simulate(s, 0);
  const std::vector<double> nccl = simulate(s, 0, Reduction::premultiplied_average);
  double worst = 0;
  for (std::size_t i = 0; i < exact.size(); ++i)
    worst = std::max(worst, std::fabs(nccl[i] - exact[i]) / exact[i]);
  CHECK(worst > 2 * type_epsilon(DataType::f8e4m3));
}

TEST_CASE("a buffer encoded and checked piece by piece is the one encoded and checked whole") {
  // Three pieces and a part: every boundary sits inside the buffer, and `first` moves the
  // pattern's index along (a piece taken as if it began at 0 would be wrong almost everywhere).
  const std::size_t count = 3 * kPatternPieceElements + 1000;
  for (const DataType t : {DataType::f32, DataType::bf16, DataType::f8e4m3}) {
    INFO(type_name(t));
    const std::size_t size = type_size(t);
    // all_reduce sends and receives the whole count; reduce_scatter's output is rank 1's block.
    const CaseShape s{Collective::all_reduce, t, ReduceOp::sum, 0, 4, count};
    std::vector<std::byte> pieces(count * size), whole(count * size), tail(count * size);
    encode_input(s, 2, 0, pieces);
    std::vector<double> values(count);
    for (std::size_t i = 0; i < count; ++i) values[i] = input_value(s, 2, i);
    encode_array(t, values, whole);
    CHECK(pieces == whole);
    const std::size_t half = count / 2;  // the second half on its own, at its place
    encode_input(s, 2, half, std::span<std::byte>(tail).first((count - half) * size));
    CHECK(std::equal(tail.begin(), tail.begin() + std::ptrdiff_t((count - half) * size),
                     whole.begin() + std::ptrdiff_t(half * size)));

    for (const Collective c : {Collective::all_reduce, Collective::reduce_scatter}) {
      const CaseShape out_shape{c, t, ReduceOp::sum, 0, 4, 4 * count};
      const std::size_t out_count = c == Collective::all_reduce ? 4 * count : count;
      std::vector<double> out(out_count);
      for (std::size_t i = 0; i < out_count; ++i) out[i] = expected_value(out_shape, 1, i);
      std::vector<std::byte> encoded(out_count * size);
      encode_array(t, out, encoded);
      CHECK(count_wrong_encoded(out_shape, 1, 0, encoded) == 0);
      encoded[(2 * kPatternPieceElements + 5) * size] ^= std::byte{0x7f};  // past two boundaries
      CHECK(count_wrong_encoded(out_shape, 1, 0, encoded) == 1);
      const std::size_t from = out_count / 2;
      const auto rest = std::span<const std::byte>(encoded).subspan(from * size);
      const std::size_t spoiled_in_rest = from <= 2 * kPatternPieceElements + 5 ? 1 : 0;
      CHECK(count_wrong_encoded(out_shape, 1, from, rest) == spoiled_in_rest);
      // The same bytes judged as if they began at element 0 are wrong.
      CHECK(count_wrong_encoded(out_shape, 1, 0, rest) > spoiled_in_rest);
    }
  }
}

TEST_CASE("a case's buffers: the send buffer and a receive buffer for either placement") {
  // all_gather over 4 ranks of 1 Mi float elements: sends a quarter, receives all of it.
  CHECK(case_buffer_bytes({Collective::all_gather, DataType::f32, ReduceOp::sum, 0, 4, 1 << 20}) ==
        (double(1 << 18) + double(1 << 20)) * 4);
  // reduce_scatter sends all and receives a quarter; in place that one buffer holds the input.
  CHECK(case_buffer_bytes({Collective::reduce_scatter, DataType::bf16, ReduceOp::sum, 0, 4,
                           1 << 20}) == 2.0 * double(1 << 20) * 2);
  // Near the largest size accepted, counted without wrapping.
  CHECK(case_buffer_bytes({Collective::all_reduce, DataType::f8e4m3, ReduceOp::sum, 0, 2,
                           std::size_t{1} << 63}) == 0x1p64);
}

TEST_CASE("a premultiplied sum is the sum of each rank's input times its scalar") {
  // nccl-tests' PreMulSum scalar: 1 on even ranks, 2 on odd ones; only for reductions.
  const CaseShape s{Collective::all_reduce, DataType::f32, ReduceOp::mulsum, 0, 3, 6};
  CHECK(premul_scalar(s, 0) == 1.0);
  CHECK(premul_scalar(s, 1) == 2.0);
  CHECK(premul_scalar(s, 2) == 1.0);
  CHECK(premul_scalar({Collective::all_reduce, DataType::f32, ReduceOp::sum, 0, 3, 6}, 1) == 1.0);
  CHECK(premul_scalar({Collective::broadcast, DataType::f32, ReduceOp::mulsum, 0, 3, 6}, 1) == 1.0);
  for (std::size_t i = 0; i < s.count; ++i) {
    double sum = 0;
    for (int r = 0; r < s.ranks; ++r) sum += input_value(s, r, i) * (r % 2 == 0 ? 1.0 : 2.0);
    CHECK(expected_value(s, 0, i) == sum);
  }
  // A plain sum of the same inputs is wrong wherever an odd rank contributed.
  std::vector<double> plain;
  for (std::size_t i = 0; i < s.count; ++i) {
    double sum = 0;
    for (int r = 0; r < s.ranks; ++r) sum += input_value(s, r, i);
    plain.push_back(sum);
  }
  CHECK(count_wrong(s, 0, plain) > 0);
}

TEST_CASE("every datatype and op is checked exactly, integer averages truncated") {
  // nccl-tests' -d all -o all: the simulated reduction, stored in the type at every step, has no
  // wrong element; an output one off in the first element has one. Odd rank counts make the
  // integer averages fractional (truncated toward zero, as integer division does).
  for (const DataType t : all_datatypes()) {
    for (const ReduceOp op : all_reduce_ops()) {
      for (const int ranks : {1, 3, 4, 7}) {
        CaseShape s{Collective::all_reduce, t, op, 0, ranks, 96};
        INFO(type_name(t) << " " << op_name(op) << " ranks " << ranks);
        std::vector<double> out = simulate(s, 0, Reduction::stored_forward);
        CHECK(out == simulate(s, 0, Reduction::stored_reversed));
        CHECK(count_wrong(s, 0, out) == 0);
        std::vector<std::byte> raw(out.size() * type_size(t));
        encode_array(t, out, raw);
        CHECK(count_wrong_encoded(s, 0, 0, raw) == 0);
        out[0] += is_integer(t) ? 1.0 : out[0];
        CHECK(count_wrong(s, 0, out) == 1);
      }
    }
  }
  // Over 3 ranks some sums are not multiples of 3: there the integer average is truncated.
  const CaseShape avg{Collective::all_reduce, DataType::i32, ReduceOp::avg, 0, 3, 24};
  int fractional = 0;
  for (std::size_t i = 0; i < avg.count; ++i) {
    double sum = 0;
    for (int r = 0; r < avg.ranks; ++r) sum += input_value(avg, r, i);
    CHECK(expected_value(avg, 0, i) == std::trunc(sum / 3));
    if (std::trunc(sum / 3) != sum / 3) ++fractional;
  }
  CHECK(fractional > 0);
}

TEST_CASE("gather is checked on its root only, scatter's blocks come from the root") {
  const CaseShape gather{Collective::gather, DataType::f32, ReduceOp::sum, 2, 4, 32};
  CHECK(has_output(gather, 2));
  CHECK_FALSE(has_output(gather, 1));
  std::vector<double> at_root = simulate(gather, 2);
  // Blocks in rank order: swapping the first two is caught in every element that differs.
  std::rotate(at_root.begin(), at_root.begin() + 8, at_root.begin() + 16);
  CHECK(count_wrong(gather, 2, at_root) == 16);

  const CaseShape scatter{Collective::scatter, DataType::f32, ReduceOp::sum, 2, 4, 16};
  CHECK(has_output(scatter, 1));
  std::vector<double> from_self(4);
  for (std::size_t i = 0; i < from_self.size(); ++i) from_self[i] = input_value(scatter, 1, 4 + i);
  CHECK(count_wrong(scatter, 1, from_self) == from_self.size());
  std::vector<double> wrong_block(4);
  for (std::size_t i = 0; i < wrong_block.size(); ++i)
    wrong_block[i] = input_value(scatter, 2, i);  // the root's block 0, not block 1
  CHECK(count_wrong(scatter, 1, wrong_block) == wrong_block.size());
}

TEST_CASE("a block from the wrong place is caught at any distance, the period's included") {
  // Values are few (exact in fp8), so index i alone would repeat every period (lcm(ranks, 24)
  // until 2026-12-07): a block moved by a multiple of that read the same, whole. Chunks of the
  // buffer start at hashed places instead, so most of such a block is wrong. Blocks here are
  // multiples of the period of 2026-12-06.
  const auto at_least_half_wrong = [](const CaseShape& s, int rank, std::span<const double> out) {
    INFO(info(s.collective).name << " " << op_name(s.op) << " ranks " << s.ranks);
    REQUIRE(count_wrong(s, rank, simulate(s, rank)) == 0);
    CHECK(count_wrong(s, rank, out) >= out.size() / 2);
  };
  // alltoall: rank 1 receives from every rank the block that rank sends to rank 2 (192 away).
  const CaseShape alltoall{Collective::alltoall, DataType::f32, ReduceOp::sum, 0, 4, 4 * 96};
  at_least_half_wrong(alltoall, 1, simulate(alltoall, 2));
  // scatter: rank 1 receives the root's block 0 (48 away).
  const CaseShape scatter{Collective::scatter, DataType::bf16, ReduceOp::sum, 0, 4, 4 * 48};
  at_least_half_wrong(scatter, 1, simulate(scatter, 0));
  // all_gather over 16 ranks: each block holds the rank's 8 ranks on (3 x 8 = 0 mod 8).
  const CaseShape gather16{Collective::all_gather, DataType::f8e4m3, ReduceOp::sum, 0, 16, 16 * 48};
  std::vector<double> skewed = simulate(gather16, 0);
  std::rotate(skewed.begin(), skewed.begin() + 8 * 48, skewed.end());
  at_least_half_wrong(gather16, 0, skewed);
  // reduce_scatter: the last rank receives block 0 (over 4 ranks 3072 away, a multiple of 12;
  // a product on an even rank count, and a min or max over 8 ranks or more, were constant).
  for (const int ranks : {4, 16}) {
    for (const ReduceOp op : all_reduce_ops()) {
      const CaseShape rs{Collective::reduce_scatter, DataType::f32, op, 0, ranks, 1024u * ranks};
      at_least_half_wrong(rs, ranks - 1, simulate(rs, 0));
    }
  }
  // Blocks inside one chunk: an alltoall over 2 ranks with 4-element blocks, whose wrong block
  // sits 4 elements away in the same chunk, is caught whole in every draw. One with 8-element
  // blocks (64 B), whose wrong block is the next chunk, passes whole only where the two chunks
  // start at the same place of the copies' 64 values: expected in 1 chunk of 64, 8 of the 512
  // here. With chunks of 16 (until 2026-12-06) the 8-element block sat 8 away in the same
  // chunk and passed whole in every draw; with a copy's values 1..8 (until 2026-12-07), 1 chunk
  // in 8 passed, 64 of 512. A reduce_scatter over 2 ranks whose 8-element block is the other
  // rank's passes whole in at most 17 of 256 draws for any op (min and max 4, with a copy's 64
  // values); until 2026-12-07, with a min's values 1..8 and no sign or factor on a sum's or
  // product's, in 100 (sum, average), 64 (product, premultiplied sum) and 32 (min, max).
  std::size_t chunks_passed = 0;
  for (std::uint32_t draw = 0; draw < 256; ++draw) {
    CaseShape a4{Collective::alltoall, DataType::f32, ReduceOp::sum, 0, 2, 8};
    a4.draw = draw;
    CHECK(count_wrong(a4, 0, simulate(a4, 1)) == 8);
    CaseShape a8 = a4;
    a8.count = 16;
    const std::vector<double> out = simulate(a8, 1);
    for (std::size_t block = 0; block < 2; ++block)
      chunks_passed += count_wrong(a8, 0, std::span(out).subspan(8 * block, 8), 8 * block) == 0;
  }
  INFO(chunks_passed << " of 512 misplaced 8-element blocks passed whole");
  CHECK(chunks_passed <= 24);
  for (const ReduceOp op : all_reduce_ops()) {
    std::size_t blocks_passed = 0;
    for (std::uint32_t draw = 0; draw < 256; ++draw) {
      CaseShape rs{Collective::reduce_scatter, DataType::bf16, op, 0, 2, 16};
      rs.draw = draw;
      blocks_passed += count_wrong(rs, 0, simulate(rs, 1)) == 0;
    }
    INFO(op_name(op) << ": " << blocks_passed << " of 256 misplaced 8-element blocks passed whole");
    CHECK(blocks_passed <= 24);
  }
  // hypercube over 16 ranks that lost its last exchange: rank 3 still holds zeros where the
  // other half's blocks belong; or that lost its first: every other block is missing.
  const CaseShape cube{Collective::hypercube, DataType::bf16, ReduceOp::sum, 0, 16, 16 * 24};
  CHECK(count_wrong(cube, 3, run_hypercube(cube, 3, 3)) == 8 * 24);
  CHECK(count_wrong(cube, 3, run_hypercube(cube, 3, 0)) == 8 * 24);
  // ... or whose blocks all land one place too far (the send offset of a step off by a block).
  std::vector<double> shifted = simulate(cube, 3);
  std::rotate(shifted.begin(), shifted.begin() + 24, shifted.end());
  at_least_half_wrong(cube, 3, shifted);
  // all_reduce over 8 ranks, its output moved by one period (24 elements).
  const CaseShape ar{Collective::all_reduce, DataType::f16, ReduceOp::sum, 0, 8, 960};
  std::vector<double> moved = simulate(ar, 0);
  std::rotate(moved.begin(), moved.begin() + 24, moved.end());
  at_least_half_wrong(ar, 0, moved);
}

TEST_CASE("a copy's inputs are 64 values, exact and distinct in every datatype") {
  // Copied values are never combined, so they need not be small integers: 64 of them make a
  // misplaced chunk read the same values 1 time in 64, not 1 in 8. Each must survive the
  // datatype's encoding unchanged, fp8 e5m2's two mantissa bits included, and none may be the
  // zero a receive buffer is cleared to.
  for (const DataType t : all_datatypes()) {
    INFO(type_name(t));
    const CaseShape s{Collective::all_gather, t, ReduceOp::sum, 0, 4, 4 * 1024};
    std::vector<double> values;
    for (std::size_t i = 0; i < 1024; ++i) values.push_back(input_value(s, 1, i));
    std::vector<std::byte> raw(values.size() * type_size(t));
    encode_array(t, values, raw);
    CHECK(decode_array(t, raw) == values);
    CHECK(std::find(values.begin(), values.end(), 0.0) == values.end());
    std::sort(values.begin(), values.end());
    CHECK(std::unique(values.begin(), values.end()) - values.begin() == 64);
  }
}

TEST_CASE("each draw of the pattern moves other values through the collective") {
  // -c N checks draw 0, 1, ... N-1: the same values in other places, so a fault that depends on
  // the data gets N chances. A draw's output is right against its own expected values only.
  for (const Collective c : all_collectives()) {
    for (const ReduceOp op : {ReduceOp::sum, ReduceOp::max}) {
      CaseShape first{c, DataType::bf16, op, 1, 4, 4 * 64};
      CaseShape second = first;
      second.draw = 1;
      INFO(info(c).name << " " << op_name(op));
      const std::vector<double> out = simulate(second, 1);
      if (!has_output(second, 1)) continue;
      CHECK(count_wrong(second, 1, out) == 0);
      CHECK(count_wrong(first, 1, out) >= out.size() / 2);
      std::size_t moved = 0;
      for (std::size_t i = 0; i < first.count; ++i)
        moved += input_value(first, 2, i) != input_value(second, 2, i) ? 1 : 0;
      CHECK(moved >= first.count / 2);
    }
  }
}

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <random>
#include <vector>

#include <catch2/catch.hpp>

#include "gradient_check.hpp"

using namespace perfgate::step_proxy;

namespace {

// Rounds to the nearest bf16 (ties to even), as a GPU's bf16 sum does after each addition.
float to_bf16(float x) {
  std::uint32_t bits = 0;
  std::memcpy(&bits, &x, sizeof bits);
  bits += 0x7FFFu + ((bits >> 16) & 1u);
  bits &= 0xFFFF0000u;
  std::memcpy(&x, &bits, sizeof x);
  return x;
}

// `ranks` ranks holding the same bf16 gradients sum them along a ring, rounding every partial sum
// to bf16 (NCCL's ring all-reduce); `contributors` is how many ranks' gradients reach the sum.
BucketSums ring_sum(int ranks, int contributors, std::size_t count, unsigned seed) {
  std::mt19937 rng(seed);
  std::uniform_real_distribution<float> value(-1.0f, 1.0f);
  double local = 0, reduced = 0;
  for (std::size_t i = 0; i < count; ++i) {
    const float g = to_bf16(value(rng) * std::ldexp(1.0f, -static_cast<int>(i % 20)));
    float acc = g;
    for (int r = 1; r < contributors; ++r) acc = to_bf16(acc + g);
    local += std::fabs(g);
    reduced += std::fabs(acc);
  }
  return {{ranks * local}, {reduced}, {reduced}};
}

const std::vector<Bucket> kOneBucket = {{3, 4096, 1 << 16}};

}  // namespace

TEST_CASE("the tolerance is the worst case of an n-rank sum", "[step_proxy]") {
  CHECK(reduction_tolerance(1, kBf16UnitRoundoff) < 1e-8);  // one rank: the sums must match
  CHECK(reduction_tolerance(2, kBf16UnitRoundoff) ==
        Approx(kBf16UnitRoundoff / (1 - kBf16UnitRoundoff)).margin(2e-9));
  CHECK(reduction_tolerance(9, kFp32UnitRoundoff) == Approx(8 * kFp32UnitRoundoff).margin(2e-9));
  CHECK(reduction_tolerance(86, kBf16UnitRoundoff) <= kLargestTolerance);
  CHECK(reduction_tolerance(87, kBf16UnitRoundoff) > kLargestTolerance);
  CHECK(std::isinf(reduction_tolerance(257, kBf16UnitRoundoff)));
}

TEST_CASE("a bf16 ring sum of every rank's gradients passes up to 86 ranks", "[step_proxy]") {
  for (int ranks : {2, 3, 8, 64, 86}) {
    INFO(ranks << " ranks");
    const GradientCheckResult r = judge_gradient_sums(
        kOneBucket, ring_sum(ranks, ranks, 1 << 16, 7), ranks, kBf16UnitRoundoff);
    CHECK(r.made);
    CHECK(r.buckets == 1);
    CHECK(r.worst_deviation <= r.tolerance);
    if (ranks > 2) CHECK(r.worst_deviation > 0);  // the bf16 sums really rounded (g + g did not)
  }
}

TEST_CASE("past 86 ranks a bf16 sum gets no verdict: rounding alone can be that far off",
          "[step_proxy]") {
  // 512 ranks: the ring sum stalls, a third below the exact sum, with nothing wrong.
  const BucketSums stalled = ring_sum(512, 512, 1 << 14, 7);
  CHECK(stalled.lowest[0] < 0.8 * stalled.expected[0]);
  const GradientCheckResult r = judge_gradient_sums(kOneBucket, stalled, 512, kBf16UnitRoundoff);
  CHECK_FALSE(r.made);
  CHECK_THAT(r.reason, Catch::Contains("over 512 ranks"));
  // fp32 sums keep their verdict at that size.
  CHECK(judge_gradient_sums(kOneBucket, {{512.0}, {512.0}, {512.0}}, 512, kFp32UnitRoundoff).made);
}

TEST_CASE("a bucket left out, reduced twice or short of one rank fails", "[step_proxy]") {
  for (int ranks : {2, 4, 8}) {
    INFO(ranks << " ranks");
    // Left out: each rank keeps its own gradients, a factor `ranks` below the sum.
    CHECK_THROWS_AS(
        judge_gradient_sums(kOneBucket, ring_sum(ranks, 1, 4096, 3), ranks, kBf16UnitRoundoff),
        GradientCheckFailed);
    // Reduced twice: the sum summed again.
    CHECK_THROWS_AS(judge_gradient_sums(kOneBucket, ring_sum(ranks, ranks * ranks, 4096, 3), ranks,
                                        kBf16UnitRoundoff),
                    GradientCheckFailed);
    // One rank's gradients missing: 1/n of the sum, above the worst-case bound up to 8 ranks
    // (past 16 ranks in bf16 the bound exceeds 1/n and only gross errors are caught).
    CHECK_THROWS_AS(judge_gradient_sums(kOneBucket, ring_sum(ranks, ranks - 1, 4096, 3), ranks,
                                        kBf16UnitRoundoff),
                    GradientCheckFailed);
  }
}

TEST_CASE("the failure names the bucket, its gradients and the sums", "[step_proxy]") {
  const std::vector<Bucket> plan = {{1, 100, 50}, {0, 0, 100}};
  const BucketSums sums{{20.0, 40.0}, {20.0, 20.0}, {20.0, 20.0}};
  CHECK_THROWS_WITH(judge_gradient_sums(plan, sums, 2, kFp32UnitRoundoff),
                    Catch::Contains("bucket 1 of 2 (gradients 0..99, all-reduced after layer 0)") &&
                        Catch::Contains("20 to 20") && Catch::Contains("add up to 40") &&
                        Catch::Contains("deviation 50 %"));
}

TEST_CASE("ranks that disagree fail even when one of them is right", "[step_proxy]") {
  const BucketSums sums{{100.0}, {100.0}, {101.0}};
  CHECK_THROWS_AS(judge_gradient_sums(kOneBucket, sums, 2, kFp32UnitRoundoff), GradientCheckFailed);
}

TEST_CASE("NaN sums fail, all-zero gradients pass", "[step_proxy]") {
  const double nan = std::numeric_limits<double>::quiet_NaN();
  CHECK_THROWS_AS(judge_gradient_sums(kOneBucket, {{10.0}, {nan}, {nan}}, 2, kBf16UnitRoundoff),
                  GradientCheckFailed);
  CHECK_THROWS_AS(judge_gradient_sums(kOneBucket, {{nan}, {10.0}, {10.0}}, 2, kBf16UnitRoundoff),
                  GradientCheckFailed);
  CHECK(judge_gradient_sums(kOneBucket, {{0.0}, {0.0}, {0.0}}, 2, kBf16UnitRoundoff)
            .worst_deviation == 0);
  CHECK_THROWS_AS(judge_gradient_sums(kOneBucket, {{0.0}, {0.0}, {1.0}}, 2, kBf16UnitRoundoff),
                  GradientCheckFailed);
}

TEST_CASE("sum_abs adds magnitudes in double", "[step_proxy]") {
  const std::vector<float> v = {1.0f, -2.0f, 0.5f, -0.25f};
  CHECK(sum_abs(v.data(), 4) == 3.75);
  CHECK(sum_abs(v.data(), 0) == 0);
}

TEST_CASE("the exact pass's pattern: each element's sum is its two ranks' terms") {
  for (const int ranks : {1, 2, 3, 17, 64, 1000}) {
    INFO(ranks << " ranks");
    for (long long i = 0; i < 3LL * ranks + 7; ++i) {
      double sum = 0;
      int contributors = 0;
      for (int r = 0; r < ranks; ++r) {
        const double term = exact_pass_input(ranks, r, i);
        CHECK((term == 0 || term == 1 || term == 2 || term == 4));
        sum += term;
        contributors += term != 0;
      }
      CHECK(contributors == std::min(ranks, 2));
      CHECK(exact_pass_sum(ranks, i) == sum);
    }
  }
}

TEST_CASE("a bf16 ring sum of the pattern is exact, and one rank short is caught, at any count") {
  // Where the Σ|g| check stops telling one missing rank from rounding (16 ranks in bf16) and
  // where it stops judging at all (86), the exact pass still sees a single rank's absence.
  for (const int ranks : {17, 64, 87, 512}) {
    INFO(ranks << " ranks");
    const long long count = 6LL * ranks;  // every rank contributes to some element
    const Bucket all{0, 0, count};
    for (const int missing : {-1, 0, ranks / 2, ranks - 1}) {
      std::vector<double> reduced(static_cast<std::size_t>(count));
      for (long long i = 0; i < count; ++i) {
        float acc = 0;  // stored in bf16 after every addition, in ring order
        for (int r = 0; r < ranks; ++r)
          if (r != missing) acc = to_bf16(acc + static_cast<float>(exact_pass_input(ranks, r, i)));
        reduced[static_cast<std::size_t>(i)] = acc;
      }
      const long long wrong = exact_pass_wrong(
          all, ranks, [&](long long i) { return reduced[static_cast<std::size_t>(i)]; });
      if (missing < 0)
        CHECK(wrong == 0);
      else
        CHECK(wrong == 2 * count / ranks);  // the elements it adds to: two in every `ranks`
    }
  }
}

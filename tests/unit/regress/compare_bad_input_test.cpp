// Bad samples get a defined verdict with a reason code: never a crash, never a silent pass.
#include <cmath>
#include <limits>

#include <catch2/catch.hpp>

#include "perfgate/core/exit_codes.hpp"
#include "perfgate/regress/compare.hpp"
#include "run_builder.hpp"

using namespace perfgate;
using perfgate::test::make_result;
using perfgate::test::make_run;
using perfgate::test::noisy;

namespace {
VerdictRecord judge(std::vector<double> base, std::vector<double> cand) {
  regress::CompareConfig cfg;
  cfg.now = "2026-11-29T00:00:00Z";
  const auto c =
      regress::compare_runs({make_run("b", {make_result("x", std::move(base))})},
                            make_run("c", {make_result("x", std::move(cand))}), cfg, {}, {});
  REQUIRE(c.verdicts.size() == 1);
  return c.verdicts[0];
}
}  // namespace

TEST_CASE("zero or one sample: INCONCLUSIVE too_few_samples") {
  auto v = judge({100}, {150});
  CHECK(v.kind == VerdictKind::inconclusive);
  CHECK(v.reason == "too_few_samples");
  CHECK(v.repetitions_needed == 4);
  v = judge({}, noisy(100, 0.01, 10, 1));
  CHECK(v.kind == VerdictKind::inconclusive);
  CHECK(v.reason == "baseline_no_samples");
  v = judge(noisy(100, 0.01, 10, 1), {});
  CHECK(v.kind == VerdictKind::failed);
  CHECK(v.reason == "candidate_no_samples");
}

TEST_CASE("all-equal samples: SAME when equal on both sides, REGRESSION when they moved") {
  CHECK(judge(std::vector<double>(10, 100), std::vector<double>(10, 100)).kind ==
        VerdictKind::same);
  const auto moved = judge(std::vector<double>(10, 100), std::vector<double>(10, 120));
  CHECK(moved.kind == VerdictKind::regression);
  CHECK(*moved.ratio == Approx(1.2));
}

TEST_CASE("NaN, infinite, zero and negative samples") {
  const double nan = std::numeric_limits<double>::quiet_NaN();
  const double inf = std::numeric_limits<double>::infinity();
  auto good = noisy(100, 0.01, 10, 1);
  auto with = [&](double bad) {
    auto s = good;
    s[3] = bad;
    return s;
  };
  CHECK(judge(good, with(nan)).reason == "candidate_non_finite_samples");
  CHECK(judge(good, with(inf)).reason == "candidate_non_finite_samples");
  CHECK(judge(good, with(0)).reason == "candidate_non_positive_samples");
  CHECK(judge(good, with(-5)).kind == VerdictKind::failed);
  CHECK(judge(with(nan), good).kind == VerdictKind::inconclusive);
  CHECK(judge(with(nan), good).reason == "baseline_non_finite_samples");
}

TEST_CASE("a failed candidate benchmark is FAILED and the comparison does not pass") {
  Result failed = make_result("x", {});
  failed.status = ResultStatus::crashed;
  failed.message = "segfault";
  regress::CompareConfig cfg;
  cfg.now = "2026-11-29T00:00:00Z";
  const auto c = regress::compare_runs({make_run("b", {make_result("x", noisy(100, 0.01, 10, 1))})},
                                       make_run("c", {failed}), cfg, {}, {});
  CHECK(c.verdicts.at(0).kind == VerdictKind::failed);
  CHECK(c.verdicts.at(0).reason == "candidate_status_crashed");
  CHECK(c.exit_code() == exit_code::not_comparable);
}

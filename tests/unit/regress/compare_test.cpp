#include <cmath>

#include <catch2/catch.hpp>

#include "perfgate/core/exit_codes.hpp"
#include "perfgate/regress/compare.hpp"
#include "run_builder.hpp"

using namespace perfgate;
using perfgate::test::make_result;
using perfgate::test::make_run;
using perfgate::test::noisy;

namespace {

const VerdictRecord& find(const regress::Comparison& c, const std::string& family) {
  for (const auto& v : c.verdicts)
    if (v.series_id.rfind(family + "@", 0) == 0) return v;
  FAIL("no verdict for " << family);
  throw;
}

regress::CompareConfig config() {
  regress::CompareConfig c;
  c.now = "2026-11-29T00:00:00Z";
  return c;
}

}  // namespace

TEST_CASE("a clear slowdown is a REGRESSION, a clear speed-up an IMPROVEMENT") {
  const Run base = make_run("base", {make_result("slow", noisy(100, 0.01, 10, 1)),
                                     make_result("fast", noisy(100, 0.01, 10, 2)),
                                     make_result("same", noisy(100, 0.002, 10, 3))});
  const Run cand = make_run("cand", {make_result("slow", noisy(110, 0.01, 10, 4)),
                                     make_result("fast", noisy(90, 0.01, 10, 5)),
                                     make_result("same", noisy(100, 0.002, 10, 6))});
  const auto c = regress::compare_runs({base}, cand, config(), {}, {});
  const auto& slow = find(c, "slow");
  CHECK(slow.kind == VerdictKind::regression);
  CHECK(slow.reason == "interval_beyond_tolerance");
  CHECK(*slow.ratio == Approx(1.10).epsilon(0.02));
  CHECK(*slow.ratio_low > 1.02);
  CHECK(*slow.p_adjusted < 0.05);
  CHECK(find(c, "fast").kind == VerdictKind::improvement);
  CHECK(find(c, "same").kind == VerdictKind::same);
  CHECK(c.verdicts.front().kind == VerdictKind::regression);  // worst first
  CHECK(c.exit_code() == exit_code::regression);
  CHECK(c.geomean.series == 3);
  CHECK(c.geomean.ratio == Approx(std::cbrt(1.10 * 0.90)).epsilon(0.02));
  CHECK(c.geomean.low < c.geomean.ratio);
  CHECK(c.geomean.high > c.geomean.ratio);
}

TEST_CASE("direction decides what is worse: lower throughput regresses") {
  const Run base =
      make_run("b", {make_result("bw", noisy(100, 0.01, 10, 1), Direction::higher_is_better)});
  const Run cand =
      make_run("c", {make_result("bw", noisy(90, 0.01, 10, 2), Direction::higher_is_better)});
  const auto c = regress::compare_runs({base}, cand, config(), {}, {});
  CHECK(c.verdicts.at(0).kind == VerdictKind::regression);
  CHECK(c.geomean.ratio > 1.0);  // oriented so that > 1 is worse
}

TEST_CASE("tolerance is the larger of the floor and k times the measured noise") {
  const Run base = make_run("b", {make_result("x", noisy(100, 0.005, 10, 1))});
  const Run cand = make_run("c", {make_result("x", noisy(104, 0.005, 10, 2))});
  auto cfg = config();
  CHECK(regress::compare_runs({base}, cand, cfg, {}, {}).verdicts.at(0).kind ==
        VerdictKind::regression);
  // 3 × 2 % history noise = 6 %: a 4 % change is inside the tolerance.
  const auto noisy_history = regress::compare_runs({base}, cand, cfg, {{"x@time", 0.02}}, {});
  CHECK(noisy_history.verdicts.at(0).tolerance == Approx(0.06));
  CHECK(noisy_history.verdicts.at(0).kind == VerdictKind::same);
  // A per-pattern floor overrides the suite's.
  cfg.overrides.push_back({"x*", 0.10, std::nullopt});
  CHECK(regress::compare_runs({base}, cand, cfg, {}, {}).verdicts.at(0).tolerance == Approx(0.10));
}

TEST_CASE("too few repetitions: INCONCLUSIVE with the repetitions needed") {
  const Run base = make_run("b", {make_result("x", {100, 101, 99})});
  const Run cand = make_run("c", {make_result("x", {150, 151, 149})});
  const auto c = regress::compare_runs({base}, cand, config(), {}, {});
  const auto& v = c.verdicts.at(0);
  CHECK(v.kind == VerdictKind::inconclusive);
  CHECK(v.reason == "test_cannot_reach_alpha");
  CHECK(v.repetitions_needed == 4);
  CHECK(*v.ratio == Approx(1.5));
}

TEST_CASE("MISSING, NEW and NOT_COMPARABLE name what is wrong") {
  Run base = make_run("b", {make_result("gone", noisy(100, 0.01, 10, 1)),
                            make_result("kept", noisy(100, 0.01, 10, 2))});
  Run cand = make_run("c", {make_result("kept", noisy(100, 0.01, 10, 3)),
                            make_result("added", noisy(100, 0.01, 10, 4))});
  auto c = regress::compare_runs({base}, cand, config(), {}, {});
  CHECK(find(c, "gone").kind == VerdictKind::missing);
  CHECK(find(c, "added").kind == VerdictKind::new_series);
  cand.fingerprint.comparable["cpu.model"] = "other-cpu";
  c = regress::compare_runs({base}, cand, config(), {}, {});
  CHECK(c.differing_keys == std::vector<std::string>{"cpu.model"});
  CHECK(find(c, "kept").kind == VerdictKind::not_comparable);
  CHECK(find(c, "kept").details["differing_keys"][0] == "cpu.model");
  CHECK(c.exit_code() == exit_code::not_comparable);
  auto cfg = config();
  cfg.ignored_fingerprint_keys = {"cpu.model"};
  CHECK(regress::compare_runs({base}, cand, cfg, {}, {}).exit_code() == exit_code::pass);
}

TEST_CASE(
    "acks: ACKNOWLEDGED within the expected level, re-alert beyond it, ignored once expired") {
  const Run base = make_run("b", {make_result("x", noisy(100, 0.01, 10, 1))});
  const Run cand = make_run("c", {make_result("x", noisy(120, 0.01, 10, 2))});
  Ack ack;
  ack.pattern = "x*";
  ack.expires_at = "2027-01-01T00:00:00Z";
  ack.expected_ratio = 1.2;
  auto c = regress::compare_runs({base}, cand, config(), {}, {ack});
  CHECK(c.verdicts.at(0).kind == VerdictKind::acknowledged);
  CHECK(c.exit_code() == exit_code::pass);
  ack.expected_ratio = 1.1;
  c = regress::compare_runs({base}, cand, config(), {}, {ack});
  CHECK(c.verdicts.at(0).kind == VerdictKind::regression);
  CHECK(c.verdicts.at(0).reason == "ack_exceeded");
  ack.expected_ratio = 1.2;
  ack.expires_at = "2026-01-01T00:00:00Z";
  CHECK(regress::compare_runs({base}, cand, config(), {}, {ack}).verdicts.at(0).kind ==
        VerdictKind::regression);
}

TEST_CASE("baseline runs are pooled per series") {
  const Run b1 = make_run("b1", {make_result("x", noisy(100, 0.01, 5, 1))});
  const Run b2 = make_run("b2", {make_result("x", noisy(100, 0.01, 5, 2))});
  const Run cand = make_run("c", {make_result("x", noisy(110, 0.01, 10, 3))});
  const auto c = regress::compare_runs({b1, b2}, cand, config(), {}, {});
  CHECK(c.verdicts.at(0).n_baseline == 10);
  CHECK(c.verdicts.at(0).baseline_runs.size() == 2);
  CHECK(c.verdicts.at(0).kind == VerdictKind::regression);
}

TEST_CASE("scaling efficiency drop is a regression even when the smallest scale is unchanged") {
  auto point = [](double efficiency, int nodes) {
    Result r = make_result("dp_step", {efficiency}, Direction::higher_is_better, "efficiency");
    r.unit = "ratio";
    r.scale = Scale{nodes, 8, nodes * 8};
    return r;
  };
  const Run base = make_run("b", {point(1.0, 1), point(0.95, 2), point(0.90, 4)});
  const Run cand = make_run("c", {point(1.0, 1), point(0.94, 2), point(0.80, 4)});
  const auto c = regress::compare_runs({base}, cand, config(), {}, {});
  REQUIRE(c.verdicts.size() == 3);
  CHECK(c.verdicts.at(0).kind == VerdictKind::regression);
  CHECK(c.verdicts.at(0).reason == "scaling_efficiency_drop");
  CHECK(c.verdicts.at(0).details["scale"]["nodes"] == 4);
  CHECK(c.verdicts.at(1).kind == VerdictKind::same);
  CHECK(c.verdicts.at(2).kind == VerdictKind::same);
  CHECK(c.verdicts.at(0).tolerance == Approx(0.05));
}

TEST_CASE("FDR across the comparison: one borderline series among many nulls is not enough") {
  std::vector<Result> base, cand;
  for (int i = 0; i < 40; ++i) {
    base.push_back(make_result("s" + std::to_string(i), noisy(100, 0.05, 10, 100 + i)));
    cand.push_back(make_result("s" + std::to_string(i), noisy(100, 0.05, 10, 200 + i)));
  }
  const auto c =
      regress::compare_runs({make_run("b", base)}, make_run("c", cand), config(), {}, {});
  for (const auto& v : c.verdicts) {
    if (v.p_value && v.p_adjusted) CHECK(*v.p_adjusted >= *v.p_value);
  }
  CHECK(c.counts.count(VerdictKind::regression) == 0);
}

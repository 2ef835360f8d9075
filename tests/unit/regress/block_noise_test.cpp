#include <algorithm>
#include <cmath>
#include <random>

#include <catch2/catch.hpp>

#include "perfgate/regress/block_noise.hpp"
#include "perfgate/regress/compare.hpp"
#include "run_builder.hpp"

using namespace perfgate;
using perfgate::test::make_result;
using perfgate::test::make_run;
using perfgate::test::noisy;

namespace {

Run block(const std::string& uuid, double median) {
  return make_run(uuid, {make_result("op", {median * 0.99, median, median * 1.01})});
}

// The gate's candidate side: each series' samples from every block, as `gate` pools them.
Run pooled(const std::vector<Run>& blocks) {
  Run out = make_run("pooled", {});
  for (const Run& run : blocks)
    for (const Result& r : run.results) {
      auto same = std::find_if(out.results.begin(), out.results.end(),
                               [&](const Result& c) { return c.key.id() == r.key.id(); });
      if (same == out.results.end()) {
        out.results.push_back(r);
        continue;
      }
      same->samples.insert(same->samples.end(), r.samples.begin(), r.samples.end());
      same->summary = summarize(same->samples);
    }
  return out;
}

// A gate on a machine where each process lands in a slow mode (+30 %) with probability
// `slow_mode`, whatever the build: blocks of 15–60 samples (adaptive stopping) at 2 % CV
// inside a process, four series, three blocks per side. Returns the share of comparisons
// with at least one REGRESSION; `candidate_factor` > 1 makes the candidate really slower.
struct GateSimulation {
  double slow_mode = 0.25;
  double candidate_factor = 1.0;
  bool use_block_noise = true;
  int comparisons = 400;
};

double regression_rate(const GateSimulation& sim) {
  std::mt19937_64 rng(20261130);
  std::bernoulli_distribution slow(sim.slow_mode);
  std::uniform_int_distribution<std::size_t> block_size(15, 60);
  const std::vector<std::string> series{"softmax_fused", "softmax_unfused", "rmsnorm_fused",
                                        "rmsnorm_unfused"};
  regress::CompareConfig config;
  config.now = "2026-11-30T00:00:00Z";
  int flagged = 0;
  for (int trial = 0; trial < sim.comparisons; ++trial) {
    std::vector<std::vector<Run>> sides(2);
    for (int side = 0; side < 2; ++side)
      for (int b = 0; b < 3; ++b) {
        std::vector<Result> results;
        const double level = (slow(rng) ? 1.3 : 1.0) * (side == 1 ? sim.candidate_factor : 1.0);
        for (const auto& name : series)
          results.push_back(make_result(name, noisy(1000 * level, 0.02, block_size(rng), rng())));
        sides[side].push_back(
            make_run(std::to_string(side) + "-" + std::to_string(b), std::move(results)));
      }
    const Run candidate = pooled(sides[1]);
    const auto noise =
        sim.use_block_noise ? regress::between_block_noise(sides) : std::map<std::string, double>{};
    if (regress::compare_runs(sides[0], candidate, config, noise, {}).has_regression()) ++flagged;
  }
  return static_cast<double>(flagged) / sim.comparisons;
}

}  // namespace

TEST_CASE("between-block noise is the pooled standard deviation of log block medians") {
  // One side: medians 100, 100, 134 (one process in a slow mode); the other: 100, 102.
  const std::vector<std::vector<Run>> sides{{block("a1", 100), block("a2", 100), block("a3", 134)},
                                            {block("b1", 100), block("b2", 102)}};
  const auto noise = regress::between_block_noise(sides);
  REQUIRE(noise.size() == 1);
  const double l = std::log(134.0 / 100.0), m = std::log(102.0 / 100.0);
  // Residuals around each side's mean: (−l/3, −l/3, 2l/3) and (±m/2); 3 degrees of freedom.
  const double expected = std::sqrt((6.0 * l * l / 9.0 + m * m / 2.0) / 3.0);
  CHECK(noise.begin()->second == Approx(expected).epsilon(1e-6));
  CHECK(noise.begin()->second > 0.1);  // a median-based spread of these blocks would read ~0.01
}

TEST_CASE("between-block noise skips single blocks and failed results") {
  Run failed = block("a3", 500);
  failed.results[0].status = ResultStatus::crashed;
  const auto noise = regress::between_block_noise(
      {{block("a1", 100), block("a2", 110), failed}, {block("b1", 100)}});
  REQUIRE(noise.size() == 1);
  CHECK(noise.begin()->second == Approx(std::fabs(std::log(1.1)) / std::sqrt(2.0)).epsilon(1e-6));
  CHECK(regress::between_block_noise({{block("a1", 100)}, {block("b1", 200)}}).empty());
  CHECK(regress::between_block_noise({}).empty());
}

TEST_CASE("a gate whose processes land in a slow mode stays quiet between identical builds") {
  GateSimulation sim;
  sim.use_block_noise = false;
  const double samples_only = regression_rate(sim);
  sim.use_block_noise = true;
  const double with_block_noise = regression_rate(sim);
  INFO("false REGRESSION share: samples only " << samples_only << ", with block noise "
                                               << with_block_noise);
  CHECK(samples_only > 0.15);  // the scenario is hard: inside-process samples alone cry wolf
  CHECK(with_block_noise < 0.03);
}

TEST_CASE("block noise keeps real slowdowns visible") {
  GateSimulation sim;
  sim.comparisons = 200;
  sim.slow_mode = 0.0;  // a quiet machine: +10 % is caught every time
  sim.candidate_factor = 1.10;
  CHECK(regression_rate(sim) > 0.95);
  sim.slow_mode = 0.25;  // the bimodal machine: a 3× slowdown still fails the gate
  sim.candidate_factor = 3.0;
  CHECK(regression_rate(sim) > 0.95);
}

#include <cmath>
#include <limits>
#include <random>

#include <catch2/catch.hpp>

#include "perfgate/core/error.hpp"
#include "perfgate/regress/changepoints.hpp"

using namespace perfgate;
using namespace perfgate::regress;

namespace {
std::vector<double> series_with_steps(std::vector<std::pair<std::size_t, double>> levels,
                                      std::size_t n, double cv, std::uint64_t seed) {
  std::mt19937_64 rng(seed);
  std::normal_distribution<double> noise(0, cv);
  std::vector<double> out;
  double level = 100;
  for (std::size_t i = 0; i < n; ++i) {
    for (auto& [at, value] : levels)
      if (at == i) level = value;
    out.push_back(level * std::exp(noise(rng)));
  }
  return out;
}
}  // namespace

TEST_CASE("a single step is found where it begins, with its levels and direction") {
  const auto values = series_with_steps({{0, 100}, {30, 110}}, 60, 0.01, 1);
  std::vector<std::string> labels;
  for (std::size_t i = 0; i < values.size(); ++i) labels.push_back("run" + std::to_string(i));
  const ChangeReport r = detect_change_points(values, labels, DetectConfig{});
  REQUIRE(r.change_points.size() == 1);
  const ChangePoint& cp = r.change_points[0];
  CHECK(cp.index == 30);
  CHECK(cp.label == "run30");
  CHECK(cp.relative_change == Approx(0.10).margin(0.01));
  CHECK(cp.confirmed);
  CHECK(cp.regression);  // times went up
  CHECK(cp.p_value <= 0.01);
}

TEST_CASE("no change in pure noise, and a single spike is an outlier, not a change point") {
  auto values = series_with_steps({}, 80, 0.02, 7);
  CHECK(detect_change_points(values, {}, DetectConfig{}).change_points.empty());
  values[40] *= 1.6;
  const ChangeReport r = detect_change_points(values, {}, DetectConfig{});
  CHECK(r.change_points.empty());
  REQUIRE(r.outliers.size() == 1);
  CHECK(r.outliers[0].index == 40);
}

TEST_CASE("the newest points are suspected until enough later runs confirm them") {
  auto values = series_with_steps({{0, 100}, {58, 120}}, 60, 0.01, 3);  // two newest points moved
  ChangeReport r = detect_change_points(values, {}, DetectConfig{});
  REQUIRE(r.change_points.size() == 1);
  CHECK(r.change_points[0].index == 58);
  CHECK_FALSE(r.change_points[0].confirmed);
  values = series_with_steps({{0, 100}, {57, 120}}, 60, 0.01, 3);  // three: confirmed (confirm = 3)
  r = detect_change_points(values, {}, DetectConfig{});
  REQUIRE(r.change_points.size() == 1);
  // A noisy point just before the step may join it: the split is exact only to a point.
  CHECK(r.change_points[0].index >= 56);
  CHECK(r.change_points[0].index <= 57);
  CHECK(r.change_points[0].confirmed);
}

TEST_CASE("higher-is-better series: a drop is the regression") {
  const auto values = series_with_steps({{0, 100}, {20, 80}}, 40, 0.01, 5);
  DetectConfig config;
  config.direction = Direction::higher_is_better;
  const ChangeReport r = detect_change_points(values, {}, config);
  REQUIRE(r.change_points.size() == 1);
  CHECK(r.change_points[0].regression);
}

TEST_CASE("bad histories are rejected with the index named") {
  CHECK_THROWS_AS(
      detect_change_points({1, 2, std::numeric_limits<double>::quiet_NaN()}, {}, DetectConfig{}),
      InputError);
  CHECK_THROWS_WITH(detect_change_points({1, -2, 3}, {}, DetectConfig{}),
                    Catch::Contains("value[1]"));
  CHECK_THROWS_AS(detect_change_points({1, 2}, {"a"}, DetectConfig{}), InputError);
  CHECK(detect_change_points({}, {}, DetectConfig{}).change_points.empty());
  CHECK(detect_change_points({5, 5, 5, 5, 5, 5, 5, 5, 5, 5, 5, 5}, {}, DetectConfig{})
            .change_points.empty());
}

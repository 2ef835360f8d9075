// The adaptive stop rule and the correctness check.
#include <catch2/catch.hpp>

#include <cmath>
#include <limits>

#include "perfgate/microbench/check.hpp"
#include "perfgate/microbench/sampling.hpp"

using namespace perfgate::microbench;

TEST_CASE("the median interval is wide for scattered samples and narrow for tight ones") {
  std::vector<double> tight, scattered;
  for (int i = 0; i < 50; ++i) {
    tight.push_back(100.0 + (i % 5) * 0.01);
    scattered.push_back(100.0 + (i % 10) * 10.0);
  }
  CHECK(median_interval_rel_width(tight) < 0.001);
  CHECK(median_interval_rel_width(scattered) > 0.1);
  std::vector<double> few{1, 2, 3};
  CHECK(std::isinf(median_interval_rel_width(few)));
}

TEST_CASE("the stop rule honours minimum samples and time, the target, and the caps") {
  SamplingPolicy p;
  p.min_samples = 10;
  p.min_time_s = 1.0;
  p.max_time_s = 5.0;
  p.max_samples = 100;
  p.target_rel_ci = 0.01;
  std::vector<double> s;
  StopRule rule(p);
  StopReason r = StopReason::running;
  double t = 0;
  while (r == StopReason::running) {
    s.push_back(100.0);
    t += 0.2;
    r = rule.after_sample(s, t);
  }
  CHECK(r == StopReason::converged);
  CHECK(s.size() >= 10);
  CHECK(t >= 1.0);

  StopRule noisy(p);
  s.clear();
  t = 0;
  r = StopReason::running;
  for (int i = 0; r == StopReason::running; ++i) {
    s.push_back(i % 2 ? 100.0 : 200.0);
    t += 0.01;
    r = noisy.after_sample(s, t);
  }
  CHECK(r == StopReason::max_samples);

  StopRule slow(p);
  s.clear();
  r = StopReason::running;
  for (int i = 0; r == StopReason::running; ++i) {
    s.push_back(i % 2 ? 100.0 : 200.0);
    r = slow.after_sample(s, 1.0 + i);
  }
  CHECK(r == StopReason::time_cap);
  CHECK(s.size() == p.min_samples);  // the cap never cuts below the minimum sample count
}

TEST_CASE("the check passes within the bound and never passes NaN") {
  const std::vector<double> ref{1, -2, 4};
  CHECK(check_output({1, -2, 4.0001}, ref, 1e-4).passed);
  const auto off = check_output({1, -2, 4.1}, ref, 1e-4);
  CHECK_FALSE(off.passed);
  CHECK(off.message.find("output[2]") != std::string::npos);
  CHECK_FALSE(check_output({1, std::nan(""), 4}, ref, 1e9).passed);
  CHECK_FALSE(check_output({1, std::numeric_limits<double>::infinity(), 4}, ref, 1e9).passed);
  CHECK_FALSE(check_output({1, -2}, ref, 1e9).passed);
}

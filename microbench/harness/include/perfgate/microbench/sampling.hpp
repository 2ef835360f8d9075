#pragma once
// The adaptive sampling policy: how long to warm up, how many repetitions to take, when to stop.
#include <cstddef>
#include <string>
#include <vector>

#include "perfgate/core/suite.hpp"

namespace perfgate::microbench {

// The policy itself is part of a suite (core/suite.hpp).
using SamplingPolicy = perfgate::SamplingPolicy;

// Relative width (high − low) / median of the distribution-free 95 % interval of the median
// (order statistics of the binomial(n, ½)); infinity below 6 samples. Reorders `samples`.
double median_interval_rel_width(std::vector<double>& samples);

enum class StopReason { running, converged, time_cap, max_samples };
std::string to_string(StopReason r);

// Decides after each sample whether to stop. The interval is recomputed on a geometric
// schedule (every ~n/16 samples), so its cost per sample stays far below the timer's.
class StopRule {
 public:
  explicit StopRule(const SamplingPolicy& policy) : policy_(policy) {}
  // `samples` are all samples so far, `elapsed_s` the sampled time so far.
  StopReason after_sample(const std::vector<double>& samples, double elapsed_s);
  double last_rel_width() const { return last_width_; }

 private:
  SamplingPolicy policy_;
  std::size_t next_check_ = 0;
  double last_width_ = 0;
  std::vector<double> scratch_;
};

class Instance;

struct Measurement {
  std::vector<double> samples_ns;  // per invocation, one per sample
  std::size_t batch = 1;           // invocations per sample
  double warmup_s = 0, sampled_s = 0, rel_ci = 0;
  StopReason stop = StopReason::running;
};

// Warms up (doubling the batch until one lasts min_sample_s), then samples until the stop rule
// says so. `repeat` > 1 runs the body that many times per invocation (the slowdown test hook).
// Uses the instance's own clock when it has one (manual timing), else a steady clock.
Measurement measure(Instance& instance, const SamplingPolicy& policy, int repeat = 1);

}  // namespace perfgate::microbench

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

}  // namespace perfgate::microbench

#pragma once
// Turns every rank's step times into the step proxy's result document.
#include <string>
#include <vector>

#include "gradient_check.hpp"
#include "perfgate/core/model.hpp"
#include "step_loop.hpp"

namespace perfgate::step_proxy {

struct ProxyRunInfo {
  Shape shape;
  std::string backend, suite;
  long long bucket_bytes = 0;
  double ceiling_flops_per_s = 0;  // measured GEMM rate of one rank (the MFU denominator)
  std::vector<std::string> rank_hosts;
  int thread_level = 0;
  double straggler_margin = 0.10;
  std::string compute;  // what computed and communicated, in words
  GradientCheckResult gradient_check;
  ModelCheckResult model_check;
};

// per_rank[r][rep]: rank r's mean step times over the iterations of repetition rep.
Run build_report(const ProxyRunInfo& info, const std::vector<std::vector<StepTimes>>& per_rank);

}  // namespace perfgate::step_proxy

#pragma once
// A case request with a sampling policy short enough for unit tests: a few samples, 50 ms at most.
#include <string>
#include <utility>

#include "perfgate/microbench/execute.hpp"

namespace perfgate::microbench::testing {

inline CaseRequest quick_case(const std::string& family, const std::string& backend,
                              const std::string& variant, perfgate::Params params) {
  CaseRequest c;
  c.family = family;
  c.backend = backend;
  c.variant = variant;
  c.params = std::move(params);
  c.policy.warmup_s = 0.001;
  c.policy.min_sample_s = 1e-4;
  c.policy.min_samples = 3;
  c.policy.min_time_s = 1e-3;
  c.policy.max_samples = 5;
  c.policy.max_time_s = 0.05;
  return c;
}

}  // namespace perfgate::microbench::testing

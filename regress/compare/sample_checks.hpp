#pragma once
// Whether a result's samples can enter the statistics, and which values to use.
#include <string>
#include <vector>

#include "perfgate/core/model.hpp"

namespace perfgate::regress::detail {

// Empty when usable; otherwise a reason code: "status_error", "non_finite_samples",
// "non_positive_samples", "no_samples".
std::string unusable_reason(const Result& result);

// The raw samples, or the summary's median as a single value when only aggregates were stored.
std::vector<double> usable_samples(const Result& result);

}  // namespace perfgate::regress::detail

#pragma once
// What users reach for without perfgate, measured side by side with it.
#include <cstddef>
#include <vector>

namespace perfgate::eval {

// Fixed threshold: candidate median more than 5 % above the baseline median.
bool naive_threshold_regression(const std::vector<double>& baseline,
                                const std::vector<double>& candidate);
// Plain two-sided Mann–Whitney at 0.05 per series, no FDR, no tolerance (slower side only).
bool naive_u_test_regression(const std::vector<double>& baseline,
                             const std::vector<double>& candidate);
// History: a point more than 5 % away from the previous point starts a change.
std::vector<std::size_t> naive_jump_changes(const std::vector<double>& values);

}  // namespace perfgate::eval

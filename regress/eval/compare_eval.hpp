#pragma once
// A/A and A/B evaluation of `compare` against the two naive detectors.
#include <array>
#include <cstdint>
#include <vector>

#include "generator.hpp"

namespace perfgate::eval {

inline constexpr std::array<double, 5> kSlowdowns = {0.01, 0.02, 0.05, 0.10, 0.20};

struct CompareEvalConfig {
  std::size_t comparisons = 200;  // per noise setting and slowdown
  std::size_t series_per_comparison = 50;
  std::size_t slowed_per_comparison = 10;  // A/B: the rest stay unchanged
  std::size_t samples = 10;                // per side
  double floor = 0.005;
  double alpha = 0.05;
  std::uint64_t seed = 1;
};

struct DetectorScore {
  std::size_t null_series = 0, false_regressions = 0;               // A/A
  std::array<std::size_t, kSlowdowns.size()> slowed{}, detected{};  // A/B
  double false_per_1000() const;
  double detection(std::size_t slowdown) const;
};

struct CompareEvalRow {
  NoiseSpec noise;
  DetectorScore perfgate, threshold, u_test;
};

std::vector<CompareEvalRow> run_compare_eval(const CompareEvalConfig& config,
                                             const std::vector<NoiseSpec>& noises);

}  // namespace perfgate::eval

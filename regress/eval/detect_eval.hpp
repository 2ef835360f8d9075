#pragma once
// `detect` on generated histories with known change points: precision and recall (±2 points).
#include <cstdint>
#include <vector>

#include "generator.hpp"

namespace perfgate::eval {

struct DetectEvalConfig {
  std::size_t histories = 300;  // per noise level
  std::size_t tolerance = 2;    // a found change point within ±2 of a true one is a hit
  std::uint64_t seed = 2;
};

struct DetectScore {
  std::size_t true_points = 0, found = 0, hits = 0;
  double precision() const;
  double recall() const;
};

struct DetectEvalRow {
  double cv = 0;
  double drift = 0;
  DetectScore perfgate, naive_jump;
};

std::vector<DetectEvalRow> run_detect_eval(const DetectEvalConfig& config,
                                           const std::vector<double>& cvs);

}  // namespace perfgate::eval

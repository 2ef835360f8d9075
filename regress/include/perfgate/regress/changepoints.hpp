#pragma once
// Change points over one series' history of per-run summaries (DESIGN.md §4, `perfgate detect`).
// Works on a plain vector so corpora can be checked without a store.
#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "perfgate/core/units.hpp"

namespace perfgate::regress {

struct DetectConfig {
  std::size_t min_segment = 5;  // fewest points on each side of an interior change point
  std::size_t confirm = 3;      // later points needed before a newest change is confirmed
  double alpha = 0.01;          // permutation-test level for each accepted split
  std::size_t permutations = 999;
  double min_change = 0.03;       // smallest relative level change worth reporting
  double outlier_z = 5;           // robust z (MAD-based) beyond which a single point is an outlier
  std::uint64_t seed = 20261129;  // permutations are seeded: the same history gives the same answer
  Direction direction = Direction::lower_is_better;
};

struct ChangePoint {
  std::size_t index = 0;         // first point of the new level
  std::string label;             // run / commit of that point (from the labels given)
  double before = 0, after = 0;  // medians of the adjacent segments
  double relative_change = 0;    // after / before − 1
  double p_value = 1;            // permutation p (1 for suspected points: not tested yet)
  bool confirmed = false;        // false: "suspected", too few later points yet
  bool regression = false;       // the change is in the metric's worse direction
};

struct Outlier {
  std::size_t index = 0;
  std::string label;
  double value = 0, level = 0;  // the point and its segment's median
};

struct ChangeReport {
  std::vector<ChangePoint> change_points;  // in index order
  std::vector<Outlier> outliers;
};

// `labels` is empty or one per value. Throws InputError on a non-finite value or a label
// count that does not match.
ChangeReport detect_change_points(const std::vector<double>& values,
                                  const std::vector<std::string>& labels,
                                  const DetectConfig& config);

}  // namespace perfgate::regress

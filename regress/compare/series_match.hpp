#pragma once
// Pairs each series of the candidate run with the same series in the baseline run(s).
#include <optional>
#include <string>
#include <vector>

#include "perfgate/core/model.hpp"

namespace perfgate::regress::detail {

struct MatchedSeries {
  std::string id;                       // SeriesKey::id()
  std::optional<Scale> scale;           // sweep series are matched per scale point
  std::vector<const Result*> baseline;  // one per baseline run holding the series
  const Result* candidate = nullptr;    // null: MISSING
  const Result& any() const { return candidate ? *candidate : *baseline.front(); }
};

// Sorted by id then scale; every series of either side appears once.
std::vector<MatchedSeries> match_series(const std::vector<Run>& baseline, const Run& candidate);

}  // namespace perfgate::regress::detail

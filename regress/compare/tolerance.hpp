#pragma once
// Tolerance per series = max(relative floor, k × run-to-run noise) with per-pattern overrides.
#include <map>
#include <string>
#include <utility>
#include <vector>

#include "perfgate/core/series_pattern.hpp"
#include "perfgate/regress/compare.hpp"

namespace perfgate::regress::detail {

class ToleranceRules {
 public:
  explicit ToleranceRules(const CompareConfig& config);  // compiles the override patterns once
  // The last matching override wins, so a suite can list general patterns before special ones.
  double for_series(const std::string& series_id, bool efficiency,
                    const std::map<std::string, double>& noise) const;

 private:
  const CompareConfig& config_;
  std::vector<std::pair<SeriesPattern, ToleranceOverride>> overrides_;
};

}  // namespace perfgate::regress::detail

#pragma once
// Run-to-run noise measured inside one gate: the spread between processes ("blocks") of the
// same build (DESIGN.md §4; docs/statistics.md, "Noise between gate blocks").
#include <map>
#include <string>
#include <vector>

#include "perfgate/core/model.hpp"
#include "perfgate/regress/compare.hpp"

namespace perfgate::regress {

// Relative noise of each series between blocks: the pooled within-side standard deviation of
// log block medians (one-way ANOVA residuals; degrees of freedom = blocks − sides). Each entry
// of `sides` holds one build's blocks, one run per process. Samples inside one process share
// its luck (load, clocks, memory placement), so the tolerance must cover this spread. Only ok
// results with a positive median count; series with fewer than two blocks on every side are
// absent.
std::map<std::string, double> between_block_noise(const std::vector<std::vector<Run>>& sides);

// Each series' block medians on both sides of an A/B gate (ok results with samples); series
// missing from either side are absent.
std::map<std::string, BlockMedians> block_medians(const std::vector<Run>& baseline,
                                                  const std::vector<Run>& candidate);

}  // namespace perfgate::regress

#pragma once
// The decision table of DESIGN.md §4: interval against ±tolerance, FDR-adjusted p against alpha.
#include <cstddef>
#include <optional>
#include <string>

#include "pair_statistics.hpp"
#include "perfgate/core/units.hpp"
#include "perfgate/core/verdict.hpp"
#include "perfgate/regress/compare.hpp"

namespace perfgate::regress::detail {

struct Decision {
  VerdictKind kind = VerdictKind::inconclusive;
  std::string reason;
  std::size_t repetitions_needed = 0;
};

// Candidate/baseline ratio expressed so that > 1 is worse, whatever the metric's direction.
double worse_ratio(double ratio, Direction direction);

// `point_only` (scaling efficiency with one value per side): decided on the estimate alone.
Decision decide(const PairStatistics& s, std::optional<double> p_adjusted, double tolerance,
                Direction direction, double alpha, bool point_only);

// The gate's block test: a REGRESSION or IMPROVEMENT stands only if the two builds' block
// medians differ too, the same way (two-sided Mann–Whitney, p < alpha); else INCONCLUSIVE,
// "blocks_do_not_differ". Skipped, and said so in `details`, where the block counts are too few
// for the test to reach alpha even without ties. Records the test in v.details["block_test"].
void apply_block_test(VerdictRecord& v, const BlockMedians& blocks, Direction direction,
                      double alpha);

}  // namespace perfgate::regress::detail

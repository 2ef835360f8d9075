#pragma once
// A gate's second look at its alarms (docs/statistics.md, "Confirmation blocks"): the series
// that raised a REGRESSION or IMPROVEMENT are measured again in more processes, and an alarm
// stands only if the comparison over all of the blocks raises it again.
#include <set>
#include <string>

#include "perfgate/regress/compare.hpp"

namespace perfgate::regress {

// Ids of the series whose verdict is REGRESSION or IMPROVEMENT.
std::set<std::string> alarmed_series(const Comparison& c);

// `first` with each alarm replaced by `second`'s verdict on the same series and scale (the
// comparison over the first blocks and `added_blocks` more). The alarm stands where `second`
// raises the same one; a FAILED, NOT_COMPARABLE, MISSING or ACKNOWLEDGED verdict of `second`
// stands as it is; anything else (SAME, INCONCLUSIVE, the opposite alarm, the series absent)
// makes the series INCONCLUSIVE, "alarm_not_confirmed", with `second`'s estimate. Either way
// details.confirmation records both looks. Verdicts that were no alarm are kept as they were,
// so confirmation raises no alarm the first look did not: the chance of any false alarm can
// only fall. The runs and differing fingerprint keys become `second`'s (every block); counts,
// order and geometric mean are recomputed.
Comparison confirm_alarms(Comparison first, const Comparison& second, int added_blocks,
                          double alpha);

}  // namespace perfgate::regress

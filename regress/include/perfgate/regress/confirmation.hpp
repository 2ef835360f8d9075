#pragma once
// A gate's second look at its alarms (docs/statistics.md, "Confirmation blocks"): the series
// that raised a REGRESSION or IMPROVEMENT are measured again in more processes, and an alarm
// stands only if the comparison over all of the blocks raises it again.
#include <cstddef>
#include <map>
#include <set>
#include <string>
#include <vector>

#include "perfgate/regress/compare.hpp"

namespace perfgate::regress {

// Ids of the series whose verdict is REGRESSION or IMPROVEMENT.
std::set<std::string> alarmed_series(const Comparison& c);

// What the confirming processes were asked for and what they measured: per series, how many
// of their blocks hold an ok result with samples of it on each side, and why each other block
// did not. A gate against the store runs no baseline processes, and only the candidate's count
// is consulted.
struct ConfirmingBlocks {
  int requested = 0;
  bool has_baseline_blocks = true;
  std::map<std::string, std::size_t> baseline, candidate;
  // Per series, one line per block that did not measure it: "baseline block 4: crashed
  // (measuring process ended by signal 11)", "... absent", "... timeout", "... no samples".
  std::map<std::string, std::vector<std::string>> unmeasured;
};

// Reads the confirming blocks of both sides (one run per process, numbered from `first_block`)
// once, for each series of `series`.
ConfirmingBlocks confirming_blocks(int requested, bool has_baseline_blocks,
                                   const std::vector<Run>& baseline,
                                   const std::vector<Run>& candidate, int first_block,
                                   const std::set<std::string>& series);

// `first` with each alarm replaced by `second`'s verdict on the same series and scale (the
// comparison over the first blocks and the confirming ones). The alarm stands where `second`
// raises the same one; a FAILED, NOT_COMPARABLE, MISSING or ACKNOWLEDGED verdict of `second`
// stands as it is; a series that fewer confirming blocks than requested measured on either side
// becomes NOT_COMPARABLE, "confirmation_not_measured" (its alarm would otherwise be judged on
// the first blocks again); anything else (SAME, INCONCLUSIVE, the opposite alarm, the series
// absent) makes the series INCONCLUSIVE, "alarm_not_confirmed", with `second`'s estimate.
// details.confirmation records both looks, the blocks measured and the outcome ("confirmed",
// "not_confirmed", "not_measured" or "second_look_stands") and, when a block did not measure
// the series, why (`unmeasured`). Verdicts that were no alarm are
// kept as they were, so confirmation raises no alarm the first look did not: the chance of any
// false alarm can only fall. The runs and differing fingerprint keys become `second`'s (every
// block); counts, order and geometric mean are recomputed.
Comparison confirm_alarms(Comparison first, const Comparison& second,
                          const ConfirmingBlocks& blocks, double alpha);

}  // namespace perfgate::regress

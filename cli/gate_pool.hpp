#pragma once
// Pools several runs of the same build (one process each) into one run per side.
#include <map>
#include <string>
#include <vector>

#include "perfgate/core/model.hpp"

namespace perfgate::cli {

// Samples of each series are concatenated in block order and the summary recomputed; a series
// that failed in any block keeps that block's status and message. Run-level fields come from the
// first block; labels.pooled_from lists every block's uuid. Throws InputError when `runs` is empty.
Run pool_runs(const std::vector<Run>& runs);

// Relative run-to-run noise of each series seen between processes: the scaled median absolute
// deviation of log block medians from each side's median, pooled over sides (each entry of
// `sides` holds one build's blocks). Samples inside one process share its luck (load, clocks, placement), so the
// tolerance must cover this spread; series with fewer than two blocks on every side are absent.
std::map<std::string, double> between_block_noise(const std::vector<std::vector<Run>>& sides);

}  // namespace perfgate::cli

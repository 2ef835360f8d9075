#pragma once
// Pools several runs of the same build (one process each) into one run per side.
#include <string>
#include <vector>

#include "perfgate/core/model.hpp"

namespace perfgate::cli {

// Samples of each series are concatenated in block order and the summary recomputed; a series
// that failed in any block keeps that block's status and message. Run-level fields come from the
// first block; labels.pooled_from lists every block's uuid. Throws InputError when `runs` is empty.
Run pool_runs(const std::vector<Run>& runs);

}  // namespace perfgate::cli

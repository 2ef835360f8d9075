#pragma once
// `compare` keeps its verdicts in the store (DESIGN.md §3) when the candidate is a stored run:
// a nightly that regressed is then passed over by the baseline policies.
#include <string>

#include "perfgate/regress/compare.hpp"

namespace perfgate::cli {

// True when `source` is read as a file, not as a run selector (RunSources::load's rule).
bool names_a_file(const std::string& source);

// Saves the comparison's verdicts in one transaction, replacing an earlier save of the same
// comparison. A store this process may not write is left alone: returns why nothing was saved
// (empty when saved). Other failures throw.
std::string save_verdicts_if_writable(const std::string& db_path,
                                      const regress::Comparison& comparison);

}  // namespace perfgate::cli

#pragma once
// Helpers of `perfgate sweep` (cli/sweep_*.cpp).
#include <ostream>
#include <string>
#include <vector>

#include "perfgate/core/model.hpp"
#include "perfgate/scaling/workload.hpp"

namespace perfgate::cli {

// The efficiency table (and the step-time decomposition when the sweep has one) of a sweep run.
void print_sweep_table(std::ostream& out, const Run& sweep);

// Finds perfgate-collectives and perfgate-step-proxy: explicit paths first, then the --bin-dir
// folders, then this build's own tree next to the perfgate binary, then PATH.
scaling::ProgramPaths find_programs(const std::vector<std::string>& bin_dirs,
                                    const std::string& collectives, const std::string& step_proxy);

}  // namespace perfgate::cli

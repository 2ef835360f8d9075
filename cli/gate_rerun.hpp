#pragma once
// The command that measures a flagged case again, printed with the gate's verdicts: what the
// author of a change runs next, by hand or under a profiler (docs/ci.md, "Looking at a flagged
// case").
#include <map>
#include <string>

#include "gate_blocks.hpp"
#include "perfgate/regress/compare.hpp"

namespace perfgate::cli {

// For each REGRESSION or FAILED series: `perfgate run --suite S --no-store --filter '^case$'`
// with the gate's measuring options and run arguments, each word quoted for a POSIX shell.
std::map<std::string, std::string> rerun_commands(const regress::Comparison& comparison,
                                                  const SuiteInvocation& how);

// `word` as a POSIX shell reads it back: bare when it holds only safe characters, else in
// single quotes (a quote inside written '\'').
std::string shell_word(const std::string& word);

}  // namespace perfgate::cli

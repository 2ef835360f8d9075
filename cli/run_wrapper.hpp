#pragma once
// `perfgate run --wrap CMD`: the command every measuring process of the run starts under, as a
// user would type it before a program: `taskset -c 2` or `numactl -N 0 -m 0` to pin it, `nsys
// profile -o prof/{case}` or `ncu -o prof/{case}` to profile each case on its own.
#include <chrono>
#include <filesystem>
#include <string>
#include <vector>

#include "perfgate/core/process.hpp"

namespace perfgate::cli {

// The measuring program and what it runs under: one command line per case (or ceiling).
struct MeasuringProgram {
  std::filesystem::path runner;   // perfgate-microbench
  std::vector<std::string> wrap;  // empty: the runner alone

  // The wrapper's words, `{case}` in each replaced by `label` made file-safe, then the runner
  // and `args`.
  std::vector<std::string> command(const std::string& label,
                                   const std::vector<std::string>& args) const;
  // Runs that command within `limit`, stdout and stderr captured, with PERFGATE_CASE (the
  // file-safe label) in its environment for wrappers that name files from it (nsys and ncu
  // expand `%q{PERFGATE_CASE}`).
  ProcessResult run(const std::string& label, const std::vector<std::string>& args,
                    std::chrono::milliseconds limit) const;
};

// Splits --wrap's text into words at whitespace; a word that starts with ' or " runs to the
// matching quote (a backslash escapes the quote or itself), as a shell would read it. The first
// word must be an executable file: a path, or a name found on $PATH. Throws InputError naming
// --wrap and the problem.
std::vector<std::string> parse_wrap(const std::string& text);

// A case name as one file name: letters, digits, '.', '_', '=' and '-' kept, ':' becomes '='
// and anything else '_' (`softmax/backend:cpu/cols:512` → `softmax_backend=cpu_cols=512`).
std::string file_safe(const std::string& case_name);

}  // namespace perfgate::cli

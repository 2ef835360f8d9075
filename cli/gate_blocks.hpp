#pragma once
// Runs a benchmark suite as separate processes of two builds, interleaved A B A B … on this
// machine, so that drift (thermal, other load) falls on both sides alike.
#include <chrono>
#include <filesystem>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "perfgate/core/model.hpp"
#include "run_measure_options.hpp"

namespace perfgate::cli {

struct SuiteInvocation {
  std::string suite = "premerge";
  std::string filter;                   // empty: the whole suite
  MeasureOptions measure;               // --backend, --timing, --no-ceilings of `run`
  std::vector<std::string> extra_args;  // passed through to `run` after those
  std::chrono::seconds timeout{1800};   // per process
};

// One side's build: its perfgate, plus the environment that points `run` at a measuring
// program of another build (PERFGATE_MICROBENCH) when only that was given.
struct BuildUnderTest {
  std::filesystem::path perfgate;
  std::map<std::string, std::string> env;
};
// From --baseline-bin/--candidate-bin: a perfgate, or a perfgate-microbench (measured through
// `self`'s run). Throws InputError naming `flag` when `path` is not an executable file.
BuildUnderTest build_from_flag(const std::string& flag, const std::string& path,
                               const std::filesystem::path& self);

// The `run` arguments that measure what `how` names, out of the store: --suite, --no-store,
// --filter, the measuring options and the extra arguments (shared by the block processes and
// the command printed to measure a flagged case again).
std::vector<std::string> suite_arguments(const SuiteInvocation& how);

// The command line that makes `perfgate` measure the suite once into `output`.
std::vector<std::string> suite_command(const std::filesystem::path& perfgate,
                                       const SuiteInvocation& how,
                                       const std::filesystem::path& output);

struct BlockRuns {
  std::vector<Run> baseline, candidate;
};

// `blocks` rounds, numbered from `first_block`; each round runs the baseline (when given) and
// then the candidate, every process writing documents into `dir` (kept as artefacts). Throws
// ToolError naming the program and block when a process fails or writes no document.
BlockRuns run_interleaved(const std::optional<BuildUnderTest>& baseline,
                          const BuildUnderTest& candidate, const SuiteInvocation& how, int blocks,
                          const std::filesystem::path& dir, int first_block = 1);

}  // namespace perfgate::cli

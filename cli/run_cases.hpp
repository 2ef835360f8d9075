#pragma once
// Executes planned cases for `perfgate run`, each in its own perfgate-microbench process.
#include <chrono>
#include <filesystem>

#include "perfgate/core/model.hpp"
#include "perfgate/microbench/execute.hpp"
#include "run_wrapper.hpp"

namespace perfgate::cli {

// $PERFGATE_MICROBENCH, else perfgate-microbench next to this executable (/proc/self/exe).
std::filesystem::path microbench_runner();

// Runs one case in a child process (under the program's wrapper, if any) with a time limit. A crash
// (signal) comes back as status crashed, a timeout as timeout, a child that wrote no result as
// error; the message says why.
Result run_case_isolated(const MeasuringProgram& program, const microbench::CaseRequest& request,
                         std::chrono::milliseconds limit, const std::filesystem::path& scratch);

}  // namespace perfgate::cli

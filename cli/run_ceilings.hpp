#pragma once
// The ceilings of the backends a run uses, measured once per run before its cases, each in a
// perfgate-microbench process of its own (`--ceilings BACKEND`), as cases are.
#include <chrono>
#include <filesystem>
#include <map>
#include <string>
#include <vector>

#include "perfgate/core/model.hpp"
#include "perfgate/microbench/ceilings.hpp"
#include "perfgate/microbench/execute.hpp"
#include "run_wrapper.hpp"

namespace perfgate::cli {

struct RunCeilings {
  std::map<std::string, microbench::Ceilings> measured;  // by backend
  nlohmann::json record = nlohmann::json::object();      // the run's metadata.ceilings
};

// For every backend of `cases` that registered ceilings: what its child measured, or, when the
// child failed, {"error": why} in the record (the run goes on without fractions for it). The
// child runs under the program's wrapper as the cases do, as case `ceilings-BACKEND`.
RunCeilings measure_ceilings(const MeasuringProgram& program,
                             const std::vector<microbench::CaseRequest>& cases,
                             std::chrono::milliseconds limit, const std::filesystem::path& scratch);

// Adds the result's fractions of its backend's ceilings (microbench::add_ceiling_fractions).
void add_fractions(Result& r, const std::string& backend, const RunCeilings& ceilings);

}  // namespace perfgate::cli

#pragma once
// Resolves a suite into its list of cases: the cartesian product of each family's axes
// (suite overrides, else the family's defaults), times every selected implementation,
// minus the family's filters and the user's --filter.
#include <functional>
#include <optional>
#include <regex>
#include <string>
#include <vector>

#include "perfgate/core/error.hpp"
#include "perfgate/core/suite.hpp"
#include "perfgate/microbench/execute.hpp"
#include "perfgate/microbench/registry.hpp"

namespace perfgate::microbench {

struct PlanOptions {
  std::vector<std::string> backends;  // the backends to run (already resolved from auto)
  std::optional<std::regex> filter;   // matched (search) against the case name
  // Timing modes ("hot", "cold", "graph") replacing every family's `timing`; empty: the suite's.
  std::vector<std::string> timing;
};

// A backend that was asked for by name has no device on this machine (`perfgate run --backend
// cuda` without a GPU). A NoDeviceError: the run measures nothing and exits 4.
class BackendUnavailable : public NoDeviceError {
 public:
  using NoDeviceError::NoDeviceError;
};

// A case's timing mode is its `timing` parameter: absent when hot (the series of every suite
// before timing modes existed), else the mode ("cold", "graph"), which only backends that
// declared it (Registry::timing_mode) get.
// Throws InputError naming the suite and the unknown family, axis or implementation,
// BackendUnavailable when a backend of options.backends has a probe that fails here, and
// ToolError (exit 2) when a backend of options.backends is not built into this binary, and
// InputError when options.timing asks for a mode that no backend of options.backends has.
std::vector<CaseRequest> plan_suite(const SuiteConfig& suite, const PlanOptions& options,
                                    const Registry& registry = Registry::instance());

// A --filter expression that keeps exactly the cases named (CaseRequest::key().name()):
// anchored alternatives with every regex metacharacter escaped, so "rows:5" does not keep
// "rows:50". `perfgate gate` measures its alarmed cases again through it.
std::string exact_cases_filter(const std::vector<std::string>& case_names);

// "cpu", plus every backend whose registered probe reports a usable device.
std::vector<std::string> available_backends(const Registry& registry = Registry::instance());

// For `--backend auto`: one line per backend of `wanted` (a suite's backends) that will not run
// here, e.g. "no CUDA device: the suite's cuda cases are not run (using cpu)".
std::vector<std::string> unavailable_backend_notes(const std::vector<std::string>& wanted,
                                                   const Registry& registry = Registry::instance());

}  // namespace perfgate::microbench

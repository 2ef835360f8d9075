#pragma once
// Google Benchmark JSON (any library version) → one perfgate run, losslessly:
// iteration rows are samples grouped by (family_index, per_family_instance_index, run_name);
// aggregates are a cross-check, or the summary when no iteration rows exist; error and skipped
// rows become failed/skipped results; BigO/RMS rows are kept in the run's metadata.
#include <string>

#include <nlohmann/json.hpp>

#include "perfgate/core/model.hpp"

namespace perfgate::baselines {

// True when `doc` has a "benchmarks" array (and is not a perfgate document).
bool looks_like_gbench(const nlohmann::json& doc);

// The run has no uuid yet (read_results_file derives one from the file's content).
// Throws InputError naming `source` and the row, e.g. "x.json: benchmarks[4].real_time: ...".
Run from_gbench_json(const nlohmann::json& doc, const std::string& source);

// "BM_x/8/64" → family "BM_x", {"arg0":"8","arg1":"64"}; "fam/k:v/4" → {"k":"v","arg0":"4"};
// a bare word such as "real_time" becomes {"real_time":"true"}.
struct SplitName {
  std::string family;
  Params params;
};
SplitName split_gbench_name(const std::string& name);

}  // namespace perfgate::baselines

#pragma once
// The ceilings a backend's results are fractions of (DESIGN.md §5), measured once per run by a
// measuring child (`perfgate-microbench --ceilings BACKEND`) and kept in the run's metadata:
// the best large copy (bytes read + written per second) and, where the backend has one, a
// large GEMM (FLOP per second).
#include <optional>
#include <string>

#include <nlohmann/json.hpp>

#include "perfgate/core/model.hpp"

namespace perfgate::microbench {

struct Ceilings {
  std::optional<double> copy_bytes_per_second, gemm_flops_per_second;
  nlohmann::json how = nlohmann::json::object();  // what was measured: sizes, methods, times
};

// {"copy_gbps": …, "gemm_tflops": …, "how": {…}}; a ceiling not measured is absent.
nlohmann::json to_json(const Ceilings& c);
// Throws InputError naming `source` when the object is not such a record.
Ceilings ceilings_from_json(const nlohmann::json& j, const std::string& source);

// Adds to an ok result's extra.counters its fraction of each ceiling measured: copy_fraction
// (GB/s over the copy's), gemm_fraction (TFLOP/s over the GEMM's) and, when both are known,
// ceiling_fraction, the larger of the two: the fraction of the roofline's attainable rate at
// the case's arithmetic intensity (below the ridge the copy bounds it, above the GEMM).
void add_ceiling_fractions(Result& r, const Ceilings& c);

}  // namespace perfgate::microbench

#include "perfgate/report/verdict_json.hpp"

#include <cmath>
#include <optional>

namespace perfgate::report {

namespace {

nlohmann::json number_or_null(const std::optional<double>& x) {
  if (!x || !std::isfinite(*x)) return nullptr;
  return *x;
}

}  // namespace

nlohmann::json verdict_json(const VerdictRecord& v) {
  return {
      {"series_id", v.series_id},
      {"verdict", std::string(to_string(v.kind))},
      {"reason", v.reason},
      {"ratio", number_or_null(v.ratio)},
      {"ratio_low", number_or_null(v.ratio_low)},
      {"ratio_high", number_or_null(v.ratio_high)},
      {"p_value", number_or_null(v.p_value)},
      {"p_adjusted", number_or_null(v.p_adjusted)},
      {"tolerance", v.tolerance},
      {"n_baseline", v.n_baseline},
      {"n_candidate", v.n_candidate},
      {"repetitions_needed", v.repetitions_needed},
      {"baseline_runs", v.baseline_runs},
      {"candidate_run", v.candidate_run},
      {"details", v.details},
  };
}

}  // namespace perfgate::report

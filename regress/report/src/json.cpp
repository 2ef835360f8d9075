// JSON: every verdict with its full evidence, for tools that post-process a comparison.
#include <cmath>

#include <nlohmann/json.hpp>

#include "renderers.hpp"
#include "verdict_text.hpp"

namespace perfgate::report::detail {

namespace {

nlohmann::json number_or_null(const std::optional<double>& x) {
  if (!x || !std::isfinite(*x)) return nullptr;
  return *x;
}

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

}  // namespace

std::string render_json(const ReportInput& in) {
  const Comparison& c = in.comparison;
  nlohmann::json counts = nlohmann::json::object();
  for (const auto& [kind, n] : count_verdicts(c.verdicts)) counts[std::string(to_string(kind))] = n;
  nlohmann::json verdicts = nlohmann::json::array();
  for (const VerdictRecord* v : worst_first(c.verdicts)) verdicts.push_back(verdict_json(*v));
  const nlohmann::json doc = {
      {"perfgate_report", 1},
      {"title", in.title},
      {"status", overall_status(c)},
      {"summary", summary_line(c)},
      {"candidate_run", c.candidate_run},
      {"baseline_runs", c.baseline_runs},
      {"differing_keys", c.differing_keys},
      {"counts", counts},
      {"geomean",
       {{"ratio", c.geomean.ratio}, {"low", c.geomean.low}, {"high", c.geomean.high},
        {"series", c.geomean.series}}},
      {"verdicts", verdicts},
  };
  // Replace invalid UTF-8 instead of throwing: names come from code under review.
  return doc.dump(2, ' ', false, nlohmann::json::error_handler_t::replace) + "\n";
}

}  // namespace perfgate::report::detail

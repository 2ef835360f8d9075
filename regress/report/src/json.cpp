// JSON: every verdict with its full evidence, for tools that post-process a comparison.
#include <cmath>

#include <nlohmann/json.hpp>

#include "perfgate/report/verdict_json.hpp"
#include "renderers.hpp"
#include "verdict_text.hpp"

namespace perfgate::report::detail {

using report::verdict_json;

std::string render_json(const ReportInput& in) {
  const Comparison& c = in.comparison;
  nlohmann::json counts = nlohmann::json::object();
  for (const auto& [kind, n] : count_verdicts(c.verdicts)) counts[std::string(to_string(kind))] = n;
  nlohmann::json verdicts = nlohmann::json::array();
  for (const VerdictRecord* v : worst_first(c.verdicts)) {
    verdicts.push_back(verdict_json(*v));
    if (const auto it = in.rerun_commands.find(v->series_id); it != in.rerun_commands.end())
      verdicts.back()["rerun"] = it->second;
  }
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
       {{"ratio", c.geomean.ratio},
        {"low", c.geomean.low},
        {"high", c.geomean.high},
        {"series", c.geomean.series}}},
      {"verdicts", verdicts},
  };
  // Replace invalid UTF-8 instead of throwing: names come from code under review.
  return doc.dump(2, ' ', false, nlohmann::json::error_handler_t::replace) + "\n";
}

}  // namespace perfgate::report::detail

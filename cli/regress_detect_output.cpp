#include "regress_detect_output.hpp"

#include <fmt/format.h>

namespace perfgate::cli {

namespace {
// Where the points on either side of a change point were measured: a step that coincides with
// a move to another node or GPU is as likely the hardware as the commit.
struct PlaceChange {
  std::string before, after;
  bool moved() const { return !before.empty() && !after.empty() && before != after; }
};
PlaceChange place_change(const SeriesDetection& s, std::size_t index) {
  if (index == 0 || index >= s.places.size()) return {};
  return {s.places[index - 1], s.places[index]};
}
}  // namespace

void write_detect_text(std::ostream& out, const std::vector<SeriesDetection>& series) {
  std::size_t with_changes = 0, alerts = 0;
  for (const SeriesDetection& s : series) {
    alerts += s.alert;
    if (s.report.change_points.empty() && s.report.outliers.empty()) continue;
    ++with_changes;
    out << fmt::format("{} ({} runs{})\n", s.series_id, s.points,
                       s.skipped_points ? fmt::format(", {} skipped", s.skipped_points) : "");
    for (const auto& cp : s.report.change_points) {
      const PlaceChange where = place_change(s, cp.index);
      out << fmt::format(
          "  {:<10} at run {} ({}): {:.6g} -> {:.6g} ({:+.1f} %){}{}{}\n",
          cp.confirmed ? (cp.regression ? "REGRESSION" : "change") : "suspected", cp.index,
          cp.label, cp.before, cp.after, 100 * cp.relative_change,
          cp.confirmed ? fmt::format(", p = {:.3g}", cp.p_value) : ", awaiting later runs",
          where.moved()
              ? fmt::format("; measured on {} from this run, {} before", where.after, where.before)
              : "",
          s.alert && cp.confirmed && cp.regression ? "  << new" : "");
    }
    for (const auto& o : s.report.outliers)
      out << fmt::format("  outlier    at run {} ({}): {:.6g} against a level of {:.6g}\n", o.index,
                         o.label, o.value, o.level);
  }
  out << fmt::format(
      "{} series checked, {} with change points or outliers, {} new confirmed regressions\n",
      series.size(), with_changes, alerts);
}

nlohmann::json detect_json(const std::vector<SeriesDetection>& series) {
  nlohmann::json out = nlohmann::json::array();
  for (const SeriesDetection& s : series) {
    nlohmann::json j = {{"series", s.series_id},
                        {"points", s.points},
                        {"skipped_points", s.skipped_points},
                        {"alert", s.alert},
                        {"change_points", nlohmann::json::array()},
                        {"outliers", nlohmann::json::array()}};
    for (const auto& cp : s.report.change_points) {
      const PlaceChange where = place_change(s, cp.index);
      j["change_points"].push_back(
          {{"index", cp.index},
           {"label", cp.label},
           {"run", cp.index < s.run_uuids.size() ? s.run_uuids[cp.index] : ""},
           {"before", cp.before},
           {"after", cp.after},
           {"relative_change", cp.relative_change},
           {"p_value", cp.p_value},
           {"status", cp.confirmed ? "confirmed" : "suspected"},
           {"regression", cp.regression},
           {"where_before", where.before},
           {"where_after", where.after},
           {"moved", where.moved()}});
    }
    for (const auto& o : s.report.outliers)
      j["outliers"].push_back(
          {{"index", o.index}, {"label", o.label}, {"value", o.value}, {"level", o.level}});
    out.push_back(std::move(j));
  }
  return out;
}

}  // namespace perfgate::cli

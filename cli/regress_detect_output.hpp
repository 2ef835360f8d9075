#pragma once
// Printing `perfgate detect` results: a text block per series, or one JSON document.
#include <ostream>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "perfgate/regress/changepoints.hpp"

namespace perfgate::cli {

struct SeriesDetection {
  std::string series_id;
  std::size_t points = 0, skipped_points = 0;  // skipped: failed runs, unusable summaries
  std::vector<std::string> run_uuids;          // one per point
  std::vector<std::string> places;             // one per point: host (and GPU), or empty
  regress::ChangeReport report;
  bool alert = false;  // a confirmed regression begins among the newest runs
};

void write_detect_text(std::ostream& out, const std::vector<SeriesDetection>& series);
nlohmann::json detect_json(const std::vector<SeriesDetection>& series);

}  // namespace perfgate::cli

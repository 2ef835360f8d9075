#pragma once
// Reporters (issue: reports and CI): terminal, markdown, junit, json, html.
// CONTRACT shared by `compare`, `gate`, `report` and scripts/nightly.
#include <filesystem>
#include <map>
#include <ostream>
#include <string>
#include <vector>

#include "perfgate/regress/compare.hpp"

namespace perfgate::report {

enum class Format { terminal, markdown, junit, json, html };
Format format_from_string(const std::string& s);  // throws InputError naming the value

// Extra material for the richer reports (HTML); all optional.
struct HistorySeries {
  std::string series_id;
  std::vector<std::string> run_uuids, labels;  // labels: commit or date per point
  std::vector<double> medians;
  std::vector<std::size_t> change_points;  // indices into medians
  std::optional<double> baseline_low, baseline_high;  // band
};
struct ScalingCurve {
  std::string series_id;
  std::vector<int> scales;          // ranks or GPUs
  std::vector<double> efficiency;   // candidate
  std::vector<double> baseline_efficiency;
};
struct StepDecomposition {
  int scale = 1;
  double compute = 0, communication = 0, exposed_communication = 0, step = 0;
};
struct ReportInput {
  std::string title = "perfgate report";
  Comparison comparison;
  std::vector<HistorySeries> histories;
  std::vector<ScalingCurve> scaling;
  std::vector<StepDecomposition> steps;
  std::string full_report_hint;  // where the full report lives (Markdown truncation pointer)
};

struct TerminalOptions {
  bool colour = false;  // decided by the caller: TTY and no NO_COLOR
  bool show_same = true;
};

void write_terminal(std::ostream& out, const ReportInput& in, const TerminalOptions& opts);
std::string render(Format format, const ReportInput& in);  // markdown, junit, json, html

}  // namespace perfgate::report

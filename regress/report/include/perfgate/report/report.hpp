#pragma once
// Reporters (issue: reports and CI): terminal, markdown, junit, json, html.
// CONTRACT shared by `compare`, `gate`, `report` and scripts/nightly.
#include <filesystem>
#include <map>
#include <optional>
#include <ostream>
#include <string>
#include <string_view>
#include <vector>

#include "perfgate/regress/compare.hpp"

namespace perfgate::report {

using regress::Comparison;

enum class Format { terminal, markdown, junit, json, html };
Format format_from_string(const std::string& s);  // throws InputError naming the value

// Extra material for the richer reports (HTML); all optional.
struct HistorySeries {
  std::string series_id;
  std::vector<std::string> run_uuids, labels;  // labels: commit or date per point
  std::vector<double> medians;
  std::vector<std::size_t> change_points;             // indices into medians
  std::optional<double> baseline_low, baseline_high;  // band
};
struct ScalingCurve {
  std::string series_id;
  std::vector<int> scales;         // ranks or GPUs
  std::vector<double> efficiency;  // candidate
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
  // Series id → a shell command that measures its case again (the gate fills it for alarms):
  // printed under the terminal table, in the Markdown evidence and as a verdict's `rerun`.
  std::map<std::string, std::string> rerun_commands;
};

struct TerminalOptions {
  bool colour = false;  // decided by the caller: TTY and no NO_COLOR
  bool show_same = true;
};

void write_terminal(std::ostream& out, const ReportInput& in, const TerminalOptions& opts);
std::string render(Format format, const ReportInput& in);  // markdown, junit, json, html

// --- additions beyond the shared contract ---

// "markdown,junit" → {markdown, junit}; duplicates dropped; throws InputError naming the value.
std::vector<Format> formats_from_list(const std::string& comma_separated);
std::string_view to_string(Format format);
// File each format is written to inside an --output-dir: report.txt, report.md, junit.xml, ...
std::string file_name(Format format);

// Colour only on a terminal, and never when NO_COLOR is set (https://no-color.org).
TerminalOptions terminal_options_for(bool stdout_is_tty);

struct MarkdownOptions {
  bool show_same = false;          // SAME rows are in the collapsed details either way
  std::size_t max_chars = 60'000;  // GitHub comments stop at 65,536; keep a margin
};
std::string render_markdown(const ReportInput& in, const MarkdownOptions& opts);

// Headline word for a comparison: REGRESSION, FAILED, NOT COMPARABLE, INCONCLUSIVE or PASS.
std::string overall_status(const Comparison& comparison);
// One line: counts per verdict, series count and the geometric-mean ratio.
std::string summary_line(const Comparison& comparison);

// Writes each format to dir/file_name(format) atomically (temporary file, then rename), creating
// dir. Returns the paths written. Throws ToolError naming the path it could not write.
std::vector<std::filesystem::path> write_reports(const std::filesystem::path& dir,
                                                 const std::vector<Format>& formats,
                                                 const ReportInput& in);

}  // namespace perfgate::report

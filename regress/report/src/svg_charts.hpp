#pragma once
// Inline SVG charts for the HTML report. Every text that reaches the SVG is HTML-escaped.
#include <string>
#include <vector>

#include "perfgate/report/report.hpp"

namespace perfgate::report::detail {

// Per-run medians as a line, the baseline band behind it, change points as dashed verticals.
std::string history_chart(const HistorySeries& history);
// Scaling efficiency against scale: candidate and baseline curves, the ideal at 1.0.
std::string scaling_chart(const ScalingCurve& curve);
// Step time per scale as stacked bars: compute, exposed communication, the rest of the step.
std::string step_chart(const std::vector<StepDecomposition>& steps);

}  // namespace perfgate::report::detail

#pragma once
// One renderer per format; render() in write_reports.cpp picks among them.
#include <string>

#include "perfgate/report/report.hpp"

namespace perfgate::report::detail {

std::string render_junit(const ReportInput& in);
std::string render_json(const ReportInput& in);
std::string render_html(const ReportInput& in);

}  // namespace perfgate::report::detail

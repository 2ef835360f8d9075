#pragma once
// Writing the chosen report formats, shared by `gate`, `report` (and `compare --format`).
#include <filesystem>
#include <string>
#include <vector>

#include "perfgate/report/report.hpp"

namespace perfgate::cli {

// Prints the terminal table to stdout (colour on a TTY unless NO_COLOR) when `formats` holds
// terminal or is empty, and writes every other format to output_dir/file_name(format).
// Prints one line per file written to stderr.
void emit_reports(const report::ReportInput& input, const std::vector<report::Format>& formats,
                  const std::filesystem::path& output_dir);

}  // namespace perfgate::cli

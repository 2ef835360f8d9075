#pragma once
// The rows of comma-separated text as nvidia-smi prints it (`--format=csv,noheader`): a row a
// line, cells split at commas and trimmed of spaces, blank lines skipped. No quoting: nvidia-smi
// does not quote, and none of the values perfgate asks it for holds a comma.
#include <string>
#include <vector>

namespace perfgate {

std::vector<std::vector<std::string>> csv_rows(const std::string& text);

// `s` without leading and trailing spaces, tabs and line ends.
std::string trim_blanks(const std::string& s);

}  // namespace perfgate

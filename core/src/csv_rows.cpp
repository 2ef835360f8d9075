#include "perfgate/core/csv_rows.hpp"

#include <sstream>

namespace perfgate {

std::string trim_blanks(const std::string& s) {
  const auto b = s.find_first_not_of(" \t\r\n");
  const auto e = s.find_last_not_of(" \t\r\n");
  return b == std::string::npos ? "" : s.substr(b, e - b + 1);
}

std::vector<std::vector<std::string>> csv_rows(const std::string& text) {
  std::vector<std::vector<std::string>> rows;
  std::istringstream lines(text);
  for (std::string line; std::getline(lines, line);) {
    if (trim_blanks(line).empty()) continue;
    std::vector<std::string> cells;
    std::istringstream in(line);
    for (std::string cell; std::getline(in, cell, ',');) cells.push_back(trim_blanks(cell));
    rows.push_back(std::move(cells));
  }
  return rows;
}

}  // namespace perfgate

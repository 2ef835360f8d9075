#include "slurm_text.hpp"

#include <algorithm>
#include <charconv>
#include <optional>
#include <regex>
#include <sstream>
#include <string_view>

#include "perfgate/core/bounded_regex.hpp"

namespace perfgate::scaling::detail {

std::string choose_mpi_plugin(const std::string& mpi_list_output) {
  std::istringstream in(mpi_list_output);
  std::string line;
  bool pmix = false, pmi2 = false;
  while (std::getline(in, line)) {
    // Lines look like "\tpmix" under "MPI plugin types are...".
    const auto b = line.find_first_not_of(" \t");
    if (b == std::string::npos) continue;
    const std::string word = line.substr(b, line.find_last_not_of(" \t\r") - b + 1);
    if (word == "pmix") pmix = true;
    if (word == "pmi2") pmi2 = true;
  }
  return pmix ? "pmix" : pmi2 ? "pmi2" : "none";
}

namespace {

// "7" or "2-5" -> [lo, hi]; nullopt for anything else (an empty item, a bare dash, digits past
// an int). The log also carries the workload's own output, so nothing in it is trusted.
std::optional<std::pair<int, int>> rank_range(std::string_view item) {
  const auto dash = item.find('-');
  const std::string_view first = item.substr(0, dash);
  const std::string_view second = dash == std::string_view::npos ? first : item.substr(dash + 1);
  int lo = 0, hi = 0;
  const auto parse = [](std::string_view digits, int& out) {
    const auto [end, ec] = std::from_chars(digits.data(), digits.data() + digits.size(), out);
    return !digits.empty() && ec == std::errc() && end == digits.data() + digits.size();
  };
  if (!parse(first, lo) || !parse(second, hi) || hi < lo) return std::nullopt;
  return std::pair{lo, hi};
}

// Calls `on_line` with each line of `log` holding `marker`, from the marker on, until it returns
// true. The log also holds the workload's output: lines go to bounded_regex_search only.
template <class OnLine>
void for_lines_with(const std::string& log, std::string_view marker, OnLine on_line) {
  for (std::size_t at = log.find(marker); at != std::string::npos; at = log.find(marker, at)) {
    const std::size_t end = std::min(log.find('\n', at), log.size());
    if (on_line(log.substr(at, end - at))) return;
    at = end;
  }
}

// The first capture of `re` on a line holding `marker`; empty when none matches.
std::string first_capture(const std::string& log, std::string_view marker, const std::regex& re) {
  std::string found;
  for_lines_with(log, marker, [&](const std::string& line) {
    std::smatch m;
    if (bounded_regex_search(line, m, re)) found = m[1].str();
    return !found.empty();
  });
  return found;
}

}  // namespace

std::map<int, std::string> rank_hosts_from_srun_log(const std::string& log, int ranks) {
  std::map<int, std::string> out;
  // Slurm brackets a list of more than one task ("3 tasks: [0-2]", "4 tasks: [0,2,4-5]") and
  // writes one alone bare ("1 tasks: 3").
  static const std::regex re(
      R"(launching StepId=\S+ on host ([^,\s]+), \d+ tasks: \[?([0-9,\-]+)\]?)");
  for_lines_with(log, "launching StepId=", [&](const std::string& line) {
    std::smatch m;
    if (!bounded_regex_search(line, m, re)) return false;
    const std::string host = m[1];
    std::istringstream ranges(m[2].str());
    std::string item;
    while (std::getline(ranges, item, ',')) {
      const auto range = rank_range(item);
      if (!range) continue;
      // Only the point's own ranks: a range past them is not this step's, and is not expanded.
      for (int r = range->first; r <= std::min(range->second, ranks - 1); ++r) out[r] = host;
    }
    return false;  // every launch line counts
  });
  return out;
}

std::string step_id_from_srun_log(const std::string& log) {
  static const std::regex re(R"(StepId=(\d+\.\d+))");
  return first_capture(log, "StepId=", re);
}

std::string nodelist_from_srun_log(const std::string& log) {
  static const std::regex re(R"(nodes\(\d+\):`([^']+)')");
  return first_capture(log, "nodes(", re);
}

std::string scontrol_field(const std::string& line, const std::string& field) {
  const std::string key = field + "=";
  std::size_t pos = 0;
  while ((pos = line.find(key, pos)) != std::string::npos) {
    if (pos == 0 || line[pos - 1] == ' ') {
      const auto start = pos + key.size();
      const auto end = line.find_first_of(" \n", start);
      return line.substr(start, end == std::string::npos ? std::string::npos : end - start);
    }
    pos += key.size();
  }
  return "";
}

std::string shell_quote(const std::string& arg) {
  std::string out = "'";
  for (char c : arg) {
    if (c == '\'')
      out += "'\\''";
    else
      out += c;
  }
  return out + "'";
}

}  // namespace perfgate::scaling::detail

// The terminal table: aligned columns, worst first, colour only when the caller asks for it.
#include <algorithm>
#include <array>

#include <fmt/format.h>

#include "perfgate/report/report.hpp"
#include "verdict_text.hpp"

namespace perfgate::report {

namespace {

// Benchmark names come from code under review: never let them drive the terminal.
std::string printable(const std::string& text) {
  std::string out = text;
  for (char& c : out)
    if (static_cast<unsigned char>(c) < 0x20 || c == 0x7f) c = '?';
  return out;
}

std::string_view colour_for(VerdictKind kind) {
  switch (kind) {
    case VerdictKind::regression:
    case VerdictKind::failed:
      return "\033[1;31m";
    case VerdictKind::improvement:
      return "\033[32m";
    case VerdictKind::acknowledged:
      return "\033[36m";
    case VerdictKind::same:
    case VerdictKind::new_series:
      return "";
    default:
      return "\033[33m";
  }
}

// Display columns of UTF-8 text (one per code point; enough for the text perfgate prints).
std::size_t display_width(const std::string& text) {
  return static_cast<std::size_t>(std::count_if(text.begin(), text.end(), [](char c) {
    return (static_cast<unsigned char>(c) & 0xC0) != 0x80;
  }));
}

constexpr std::size_t kColumns = 7;
using Row = std::array<std::string, kColumns>;

}  // namespace

void write_terminal(std::ostream& out, const ReportInput& in, const TerminalOptions& opts) {
  const Row header{"VERDICT", "SERIES", "CHANGE", "INTERVAL", "P_ADJ", "TOL", "N(B/C)"};
  std::vector<Row> rows;
  std::vector<VerdictKind> kinds;
  std::size_t hidden_same = 0;
  for (const VerdictRecord* v : detail::worst_first(in.comparison.verdicts)) {
    if (v->kind == VerdictKind::same && !opts.show_same) {
      ++hidden_same;
      continue;
    }
    rows.push_back({std::string(to_string(v->kind)), printable(v->series_id),
                    detail::format_change(v->ratio),
                    detail::format_interval(v->ratio_low, v->ratio_high),
                    detail::format_p(v->p_adjusted ? v->p_adjusted : v->p_value),
                    detail::format_tolerance(v->tolerance), detail::format_counts(*v)});
    kinds.push_back(v->kind);
  }
  std::array<std::size_t, kColumns> width{};
  auto widen = [&](const Row& r) {
    for (std::size_t c = 0; c < kColumns; ++c) width[c] = std::max(width[c], display_width(r[c]));
  };
  widen(header);
  for (const auto& r : rows) widen(r);

  auto write_row = [&](const Row& r, std::string_view colour) {
    std::string line;
    for (std::size_t c = 0; c < kColumns; ++c) {
      std::string cell = r[c] + std::string(width[c] - display_width(r[c]), ' ');
      if (c == 0 && !colour.empty()) cell = std::string(colour) + cell + "\033[0m";
      line += cell;
      if (c + 1 < kColumns) line += "  ";
    }
    while (!line.empty() && line.back() == ' ') line.pop_back();
    out << line << '\n';
  };
  write_row(header, "");
  for (std::size_t i = 0; i < rows.size(); ++i)
    write_row(rows[i], opts.colour ? colour_for(kinds[i]) : "");
  if (hidden_same > 0) out << fmt::format("({} SAME series not shown)\n", hidden_same);
  if (!in.comparison.differing_keys.empty()) {
    std::string keys;
    for (const auto& k : in.comparison.differing_keys)
      keys += (keys.empty() ? "" : ", ") + printable(k);
    out << "fingerprints differ in: " << keys << '\n';
  }
  for (const auto& [series, command] : in.rerun_commands)
    out << "measure " << printable(series) << " again: " << printable(command) << '\n';
  out << "perfgate " << summary_line(in.comparison) << '\n';
}

}  // namespace perfgate::report

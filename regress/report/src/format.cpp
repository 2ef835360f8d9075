#include <algorithm>
#include <cstdlib>

#include <fmt/format.h>

#include "perfgate/core/error.hpp"
#include "perfgate/report/report.hpp"
#include "verdict_text.hpp"

namespace perfgate::report {

namespace {
struct FormatName {
  Format format;
  std::string_view name;
  std::string_view file;
};
constexpr FormatName kFormats[] = {
    {Format::terminal, "terminal", "report.txt"}, {Format::markdown, "markdown", "report.md"},
    {Format::junit, "junit", "junit.xml"},        {Format::json, "json", "report.json"},
    {Format::html, "html", "report.html"},
};
}  // namespace

Format format_from_string(const std::string& s) {
  for (const auto& f : kFormats)
    if (f.name == s) return f.format;
  if (s == "text") return Format::terminal;
  if (s == "md") return Format::markdown;
  throw InputError("--format: unknown format '" + s +
                   "' (expected terminal, markdown, junit, json or html)");
}

std::vector<Format> formats_from_list(const std::string& comma_separated) {
  std::vector<Format> out;
  std::size_t start = 0;
  while (start <= comma_separated.size()) {
    const auto end = std::min(comma_separated.find(',', start), comma_separated.size());
    const std::string word = comma_separated.substr(start, end - start);
    if (word.empty()) throw InputError("--format: empty format name in '" + comma_separated + "'");
    const Format f = format_from_string(word);
    if (std::find(out.begin(), out.end(), f) == out.end()) out.push_back(f);
    start = end + 1;
  }
  return out;
}

std::string_view to_string(Format format) {
  for (const auto& f : kFormats)
    if (f.format == format) return f.name;
  return "terminal";
}

std::string file_name(Format format) {
  for (const auto& f : kFormats)
    if (f.format == format) return std::string(f.file);
  return "report.txt";
}

TerminalOptions terminal_options_for(bool stdout_is_tty) {
  TerminalOptions opts;
  const char* no_colour = std::getenv("NO_COLOR");
  opts.colour = stdout_is_tty && !(no_colour && *no_colour);
  return opts;
}

std::string overall_status(const Comparison& comparison) {
  const auto counts = detail::count_verdicts(comparison.verdicts);
  auto has = [&](VerdictKind k) { return counts.count(k) > 0; };
  if (has(VerdictKind::regression)) return "REGRESSION";
  if (has(VerdictKind::failed)) return "FAILED";
  if (!comparison.differing_keys.empty() || has(VerdictKind::not_comparable))
    return "NOT COMPARABLE";
  if (comparison.verdicts.empty()) return "NO DATA";
  if (has(VerdictKind::inconclusive)) return "INCONCLUSIVE";
  return "PASS";
}

std::string summary_line(const Comparison& comparison) {
  const auto counts = detail::count_verdicts(comparison.verdicts);
  std::vector<std::pair<VerdictKind, std::size_t>> ordered(counts.begin(), counts.end());
  std::sort(ordered.begin(), ordered.end(), [](const auto& a, const auto& b) {
    return severity_rank(a.first) < severity_rank(b.first);
  });
  std::string parts;
  for (const auto& [kind, n] : ordered) {
    if (!parts.empty()) parts += ", ";
    parts += fmt::format("{} {}", n, to_string(kind));
  }
  if (parts.empty()) parts = "no series";
  std::string line = fmt::format("{}: {} ({} series)", overall_status(comparison), parts,
                                 comparison.verdicts.size());
  const auto& g = comparison.geomean;
  if (g.series > 0)
    line += fmt::format("; geomean ratio {:.3f} [{:.3f}, {:.3f}] over {} series", g.ratio, g.low,
                        g.high, g.series);
  return line;
}

}  // namespace perfgate::report

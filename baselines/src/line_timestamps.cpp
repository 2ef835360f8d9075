#include "line_timestamps.hpp"

#include <algorithm>
#include <cctype>

#include "text_lines.hpp"

namespace perfgate::baselines {

namespace {

bool digits_at(std::string_view line, std::size_t at, std::size_t count) {
  if (line.size() < at + count) return false;
  return std::all_of(line.begin() + at, line.begin() + at + count,
                     [](unsigned char c) { return std::isdigit(c) != 0; });
}

// The zone's length at `at`: "Z", "+01:00" or "+0100"; 0 when none stands there.
std::size_t zone_length(std::string_view line, std::size_t at) {
  if (at < line.size() && line[at] == 'Z') return 1;
  if (at >= line.size() || (line[at] != '+' && line[at] != '-') || !digits_at(line, at + 1, 2))
    return 0;
  if (at + 3 < line.size() && line[at + 3] == ':') return digits_at(line, at + 4, 2) ? 6 : 0;
  return digits_at(line, at + 3, 2) ? 5 : 0;
}

}  // namespace

std::size_t line_timestamp_length(std::string_view line) {
  // 2026-12-07T21:58:26: the date, 'T' or ' ', the time.
  static constexpr std::string_view pattern = "9999-99-99_99:99:99";
  if (line.size() <= pattern.size()) return 0;
  for (std::size_t i = 0; i < pattern.size(); ++i) {
    const auto c = static_cast<unsigned char>(line[i]);
    const bool fits = pattern[i] == '9'   ? std::isdigit(c) != 0
                      : pattern[i] == '_' ? c == 'T' || c == ' '
                                          : c == static_cast<unsigned char>(pattern[i]);
    if (!fits) return 0;
  }
  std::size_t at = pattern.size();
  if (line[at] == '.' && digits_at(line, at + 1, 1)) {
    ++at;
    while (at < line.size() && std::isdigit(static_cast<unsigned char>(line[at])) != 0) ++at;
  }
  at += zone_length(line, at);
  return at < line.size() && line[at] == ' ' ? at + 1 : 0;
}

std::optional<UnstampedLog> strip_line_timestamps(
    std::string_view text, const std::function<bool(std::string_view)>& is_anchor) {
  UnstampedLog log;
  bool anchored = false;
  for (const std::string_view line : lines_of(text)) {
    const std::size_t stamp = line_timestamp_length(line);
    if (!anchored && is_anchor(line)) {
      if (stamp == 0) return std::nullopt;
      anchored = true;
      log.first_time = std::string(line.substr(0, stamp - 1));
    }
    log.text.append(line.substr(stamp)).push_back('\n');
  }
  if (!anchored) return std::nullopt;
  return log;
}

}  // namespace perfgate::baselines

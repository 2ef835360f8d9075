#include "line_timestamps.hpp"

#include <algorithm>
#include <cctype>
#include <map>

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

// A stamp's parts at the start of a line.
struct LineStamp {
  std::size_t length = 0;   // all of it, the space after it included
  std::string_view time;    // the date and time, without Jenkins' brackets
  std::string_view stream;  // GitLab's: two hex digits and O or E; empty elsewhere
  bool continues = false;   // GitLab's '+': the rest of the stream's previous line
};

// "00O " or "00E+" at `at`: GitLab's stream marker.
bool is_gitlab_marker(std::string_view line, std::size_t at) {
  if (line.size() < at + 4) return false;
  const auto hex = [](char c) { return std::isxdigit(static_cast<unsigned char>(c)) != 0; };
  return hex(line[at]) && hex(line[at + 1]) && (line[at + 2] == 'O' || line[at + 2] == 'E') &&
         (line[at + 3] == ' ' || line[at + 3] == '+');
}

// The date and time's length at `at`: "2026-12-07T21:58:26", a fraction and a zone optional;
// 0 when none stands there.
std::size_t time_length(std::string_view line, std::size_t at) {
  // The date, 'T' or ' ', the time.
  static constexpr std::string_view pattern = "9999-99-99_99:99:99";
  if (line.size() <= at + pattern.size()) return 0;
  for (std::size_t i = 0; i < pattern.size(); ++i) {
    const auto c = static_cast<unsigned char>(line[at + i]);
    const bool fits = pattern[i] == '9'   ? std::isdigit(c) != 0
                      : pattern[i] == '_' ? c == 'T' || c == ' '
                                          : c == static_cast<unsigned char>(pattern[i]);
    if (!fits) return 0;
  }
  std::size_t end = at + pattern.size();
  if (line[end] == '.' && digits_at(line, end + 1, 1)) {
    ++end;
    while (end < line.size() && std::isdigit(static_cast<unsigned char>(line[end])) != 0) ++end;
  }
  end += zone_length(line, end);
  return end - at;
}

std::optional<LineStamp> read_line_stamp(std::string_view line) {
  // Jenkins' Timestamper puts the time between brackets: "[2026-12-07T21:58:26.123Z] ".
  const bool bracketed = !line.empty() && line.front() == '[';
  const std::size_t begin = bracketed ? 1 : 0;
  const std::size_t length = time_length(line, begin);
  if (length == 0) return std::nullopt;
  std::size_t at = begin + length;
  if (bracketed && (at >= line.size() || line[at++] != ']')) return std::nullopt;
  if (at >= line.size() || line[at] != ' ') return std::nullopt;
  LineStamp stamp{at + 1, line.substr(begin, length), {}, false};
  if (!bracketed && is_gitlab_marker(line, stamp.length)) {
    stamp.stream = line.substr(stamp.length, 3);
    stamp.continues = line[stamp.length + 3] == '+';
    stamp.length += 4;
  }
  return stamp;
}

}  // namespace

std::size_t line_timestamp_length(std::string_view line) {
  const std::optional<LineStamp> stamp = read_line_stamp(line);
  return stamp ? stamp->length : 0;
}

std::optional<UnstampedLog> strip_line_timestamps(
    std::string_view text, const std::function<bool(std::string_view)>& is_anchor) {
  const std::vector<std::string_view> file = lines_of(text);
  // Most logs carry no stamps: an unstamped anchor with no stamped line before it (which a
  // GitLab join could have made into an earlier anchor) tells so before any line is copied.
  for (const std::string_view line : file) {
    if (line_timestamp_length(line) > 0) break;
    if (is_anchor(line)) return std::nullopt;
  }
  std::vector<std::string> lines;
  std::vector<std::string_view> times;  // each line's stamp time, empty where it had none
  std::vector<std::size_t> file_lines;
  std::map<std::string_view, std::size_t> last_line;  // GitLab stream -> its latest line
  std::size_t number = 0;
  for (const std::string_view line : file) {
    ++number;
    const std::optional<LineStamp> stamp = read_line_stamp(line);
    const std::string_view rest = line.substr(stamp ? stamp->length : 0);
    if (stamp && stamp->continues) {
      if (const auto open = last_line.find(stamp->stream); open != last_line.end()) {
        lines[open->second].append(rest);
        continue;
      }
    }
    if (stamp && !stamp->stream.empty()) last_line[stamp->stream] = lines.size();
    lines.emplace_back(rest);
    times.push_back(stamp ? stamp->time : std::string_view{});
    file_lines.push_back(number);
  }
  // The anchor is read whole, after the runner's cuts are joined.
  const auto anchor = std::find_if(lines.begin(), lines.end(),
                                   [&](const std::string& line) { return is_anchor(line); });
  if (anchor == lines.end() || times[std::size_t(anchor - lines.begin())].empty())
    return std::nullopt;
  UnstampedLog log;
  log.first_time = std::string(times[std::size_t(anchor - lines.begin())]);
  for (const std::string& line : lines) log.text.append(line).push_back('\n');
  log.file_lines = std::move(file_lines);
  return log;
}

}  // namespace perfgate::baselines

#pragma once
// Logs whose every line was stamped with the time it was printed, as CI systems keep them and
// filters write them: an ISO 8601 date and time at the start of the line ('T' or a space between
// them; a fraction after '.' and a zone, Z, +01:00 or +0100, optional; brackets around it
// optional), then a space.
//   GitHub Actions' raw logs   "2026-12-07T21:58:26.1234567Z "
//   moreutils' ts              "2026-12-07T22:58:26.123456+0100 " (ts '%Y-%m-%dT%H:%M:%.S%z')
//   Jenkins' Timestamper       "[2026-12-07T21:58:26.123Z] "
//   GitLab (FF_TIMESTAMPS)     "2026-12-07T21:58:26.123456Z 00O " then the line, or "00O+" then
//                              the rest of the stream's previous line: two hex digits naming
//                              the stream, O (standard output) or E (error), ' ' for a new line
//                              and '+' for a line the runner cut where the job flushed.
#include <cstddef>
#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace perfgate::baselines {

// The stamp's length at the start of `line`, with the space after it (and GitLab's stream
// marker); 0 when there is none.
std::size_t line_timestamp_length(std::string_view line);

struct UnstampedLog {
  std::string text;  // every stamped line without its stamp, GitLab's cut lines joined
  std::vector<std::size_t> file_lines;  // for each line of `text`, the file's line it began on
  std::string first_time;               // the stamp's time on the first line `is_anchor` accepts
};

// nullopt when the first line `is_anchor` accepts carries no stamp (or no line does).
std::optional<UnstampedLog> strip_line_timestamps(
    std::string_view text, const std::function<bool(std::string_view)>& is_anchor);

}  // namespace perfgate::baselines

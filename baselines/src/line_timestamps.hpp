#pragma once
// Logs whose every line was stamped with the time it was printed, as CI systems keep them
// (GitHub Actions' raw logs: "2026-12-07T21:58:26.1234567Z ") and filters write them
// (moreutils' `ts '%Y-%m-%dT%H:%M:%.S%z'`): an ISO 8601 date and time at the start of the line,
// 'T' or a space between them, a fraction after '.' and a zone (Z, +01:00, +0100) optional,
// then a space.
#include <cstddef>
#include <functional>
#include <optional>
#include <string>
#include <string_view>

namespace perfgate::baselines {

// The stamp's length at the start of `line`, with the space after it; 0 when there is none.
std::size_t line_timestamp_length(std::string_view line);

struct UnstampedLog {
  std::string text;        // every stamped line without its stamp, the others as they are
  std::string first_time;  // the stamp of the first line `is_anchor` accepts, as printed
};

// nullopt when the first line `is_anchor` accepts carries no stamp (or no line does).
std::optional<UnstampedLog> strip_line_timestamps(
    std::string_view text, const std::function<bool(std::string_view)>& is_anchor);

}  // namespace perfgate::baselines

#pragma once
// Series patterns used by acks, tolerances, filters and `history`:
// a shell-style glob over the series id ("attention/*@time", "gemm/*"), or "re:REGEX".
// A pattern without '@' matches every metric of the series it names.
#include <optional>
#include <regex>
#include <string>

namespace perfgate {

class SeriesPattern {
 public:
  // Limits that keep std::regex (which recurses per character) away from stack exhaustion.
  static constexpr std::size_t kMaxPatternLength = 512;
  static constexpr std::size_t kMaxRegexSubject = 2048;
  static constexpr long kMaxRepeatCount = 1000;

  explicit SeriesPattern(const std::string& text);  // throws InputError naming `text`
  // Throws InputError for a `re:` pattern applied to an id longer than kMaxRegexSubject.
  bool matches(const std::string& series_id) const;
  const std::string& text() const { return text_; }

 private:
  std::string text_;
  std::optional<std::regex> regex_;  // set for "re:" patterns; globs match without regex
};

}  // namespace perfgate

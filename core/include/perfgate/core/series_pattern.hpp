#pragma once
// Series patterns used by acks, tolerances, filters and `history`:
// a shell-style glob over the series id ("attention/*@time", "gemm/*"), or "re:REGEX".
// A pattern without '@' matches every metric of the series it names.
#include <regex>
#include <string>

namespace perfgate {

class SeriesPattern {
 public:
  explicit SeriesPattern(const std::string& text);  // throws InputError naming `text`
  bool matches(const std::string& series_id) const;
  const std::string& text() const { return text_; }

 private:
  std::string text_;
  std::regex regex_;
};

}  // namespace perfgate

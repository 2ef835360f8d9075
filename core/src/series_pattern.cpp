#include "perfgate/core/series_pattern.hpp"

#include "perfgate/core/error.hpp"

namespace perfgate {

namespace {
std::string glob_to_regex(const std::string& glob) {
  std::string re;
  for (char c : glob) {
    switch (c) {
      case '*': re += ".*"; break;
      case '?': re += "."; break;
      case '.': case '+': case '(': case ')': case '[': case ']': case '{': case '}':
      case '^': case '$': case '|': case '\\':
        re += '\\';
        re += c;
        break;
      default: re += c;
    }
  }
  // Without an explicit metric, a pattern names every metric of its series.
  if (glob.find('@') == std::string::npos) re += "(@.*)?";
  return re;
}
}  // namespace

SeriesPattern::SeriesPattern(const std::string& text) : text_(text) {
  if (text.empty()) throw InputError("series pattern: empty");
  try {
    regex_ = text.starts_with("re:") ? std::regex(text.substr(3)) : std::regex(glob_to_regex(text));
  } catch (const std::regex_error& e) {
    throw InputError("series pattern '" + text + "': invalid regular expression (" + e.what() + ")");
  }
}

bool SeriesPattern::matches(const std::string& series_id) const {
  return text_.starts_with("re:") ? std::regex_search(series_id, regex_)
                                  : std::regex_match(series_id, regex_);
}

}  // namespace perfgate

#include "perfgate/core/series_pattern.hpp"

#include <cctype>
#include <vector>

#include "perfgate/core/error.hpp"

namespace perfgate {

namespace {

// Iterative wildcard match ('*' any run, '?' one character): linear memory, no recursion.
bool glob_match(const std::string& glob, const std::string& text) {
  std::size_t g = 0, t = 0, star = std::string::npos, resume = 0;
  while (t < text.size()) {
    if (g < glob.size() && (glob[g] == '?' || glob[g] == text[t])) {
      ++g;
      ++t;
    } else if (g < glob.size() && glob[g] == '*') {
      star = g++;
      resume = t;
    } else if (star != std::string::npos) {
      g = star + 1;
      t = ++resume;
    } else {
      return false;
    }
  }
  while (g < glob.size() && glob[g] == '*') ++g;
  return g == glob.size();
}

// Rejects repeat counts ({n}, {n,m}) beyond the limit: libstdc++ overflows on huge ones.
void check_repeat_counts(const std::string& re, const std::string& text) {
  for (std::size_t i = 0; i < re.size(); ++i) {
    if (re[i] != '{' && re[i] != ',') continue;
    std::size_t j = i + 1;
    while (j < re.size() && std::isdigit(static_cast<unsigned char>(re[j]))) ++j;
    if (j - i - 1 > 4 ||
        (j > i + 1 && std::stol(re.substr(i + 1, j - i - 1)) > SeriesPattern::kMaxRepeatCount))
      throw InputError("series pattern '" + text + "': repeat count above " +
                       std::to_string(SeriesPattern::kMaxRepeatCount));
  }
}

// Rejects backreferences ("\1"): libstdc++ overflows on huge group numbers, and a pattern that
// names series never needs one.
void check_backreferences(const std::string& re, const std::string& text) {
  for (std::size_t i = 0; i + 1 < re.size(); ++i) {
    if (re[i] != '\\') continue;
    if (re[i + 1] >= '1' && re[i + 1] <= '9')
      throw InputError("series pattern '" + text + "': backreferences are not supported");
    ++i;  // skip the escaped character
  }
}

bool is_quantifier(char c) {
  return c == '*' || c == '+' || c == '?' || c == '{';
}

// Rejects the shapes that make a backtracking matcher (std::regex) exponential: a quantifier
// applied to a group that already holds one ("(a+)+"), and stacked quantifiers ("a???"), beyond
// the single lazy '?' a quantifier may carry. Patterns name series; they never need either.
void check_nested_quantifiers(const std::string& re, const std::string& text) {
  std::vector<bool> group_has_quantifier;
  std::size_t run = 0;  // consecutive quantifier characters just seen
  for (std::size_t i = 0; i < re.size(); ++i) {
    const char c = re[i];
    if (c == '\\') {
      ++i;
      run = 0;
      continue;
    }
    if (c == '[') {  // a character class holds no quantifiers
      while (i < re.size() && re[i] != ']') i += re[i] == '\\' ? 2 : 1;
      run = 0;
      continue;
    }
    if (c == '{') {
      while (i < re.size() && re[i] != '}') ++i;
    }
    if (is_quantifier(c)) {
      if (++run > 2 || (run == 2 && c != '?'))
        throw InputError("series pattern '" + text + "': stacked quantifiers");
      if (!group_has_quantifier.empty()) group_has_quantifier.back() = true;
      continue;
    }
    run = 0;
    if (c == '(') {
      group_has_quantifier.push_back(false);
      if (i + 1 < re.size() && re[i + 1] == '?') i += 2;  // (?: (?= (?! are not quantifiers
    } else if (c == ')' && !group_has_quantifier.empty()) {
      const bool inner = group_has_quantifier.back();
      group_has_quantifier.pop_back();
      if (inner && i + 1 < re.size() && is_quantifier(re[i + 1]))
        throw InputError("series pattern '" + text + "': a quantified group holds a quantifier");
      if (inner && !group_has_quantifier.empty()) group_has_quantifier.back() = true;
    }
  }
}

}  // namespace

SeriesPattern::SeriesPattern(const std::string& text) : text_(text) {
  if (text.empty()) throw InputError("series pattern: empty");
  if (text.size() > kMaxPatternLength)
    throw InputError("series pattern: longer than " + std::to_string(kMaxPatternLength) +
                     " characters");
  if (!text.starts_with("re:")) return;
  const std::string re = text.substr(3);
  check_repeat_counts(re, text);
  check_backreferences(re, text);
  check_nested_quantifiers(re, text);
  try {
    regex_.emplace(re);
  } catch (const std::regex_error& e) {
    throw InputError("series pattern '" + text + "': invalid regular expression (" + e.what() +
                     ")");
  }
}

bool SeriesPattern::matches(const std::string& series_id) const {
  if (regex_) {
    if (series_id.size() > kMaxRegexSubject)
      throw InputError("series id longer than " + std::to_string(kMaxRegexSubject) +
                       " characters cannot be matched against '" + text_ + "'");
    return std::regex_search(series_id, *regex_);
  }
  if (glob_match(text_, series_id)) return true;
  // Without an explicit metric, a pattern names every metric of its series.
  const auto at = series_id.rfind('@');
  return text_.find('@') == std::string::npos && at != std::string::npos &&
         glob_match(text_, series_id.substr(0, at));
}

}  // namespace perfgate

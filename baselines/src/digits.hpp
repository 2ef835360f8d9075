#pragma once
// One test for "a number as printed" shared by the library's text readers.
#include <algorithm>
#include <cctype>
#include <string_view>

namespace perfgate::baselines {

// `s` is one or more decimal digits, nothing else.
inline bool all_digits(std::string_view s) {
  return !s.empty() &&
         std::all_of(s.begin(), s.end(), [](unsigned char c) { return std::isdigit(c); });
}

}  // namespace perfgate::baselines

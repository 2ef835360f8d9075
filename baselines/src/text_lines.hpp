#pragma once
// A text's lines, for the readers that look at a whole log before parsing it.
#include <algorithm>
#include <string_view>
#include <vector>

namespace perfgate::baselines {

// The lines of `text` without their '\n' (a last line without one included, no empty line after
// a final '\n'); views into `text`.
inline std::vector<std::string_view> lines_of(std::string_view text) {
  std::vector<std::string_view> lines;
  while (!text.empty()) {
    const std::size_t end = std::min(text.find('\n'), text.size());
    lines.push_back(text.substr(0, end));
    text.remove_prefix(std::min(end + 1, text.size()));
  }
  return lines;
}

}  // namespace perfgate::baselines

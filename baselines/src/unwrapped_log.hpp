#pragma once
// A log rewritten into a form the tagged-log reader knows, with where each line came from.
#include <cstddef>
#include <string>
#include <vector>

namespace perfgate::baselines {

struct UnwrappedLog {
  std::string text;
  // For each line of `text`, the line of the original file it came from (1-based).
  std::vector<std::size_t> file_lines;
};

}  // namespace perfgate::baselines

#include <algorithm>
#include <cctype>

#include "perfgate/baselines/gbench.hpp"

namespace perfgate::baselines {

namespace {
bool is_number(const std::string& s) {
  return !s.empty() && std::all_of(s.begin(), s.end(), [](unsigned char c) {
    return std::isdigit(c) || c == '.' || c == '-' || c == '+' || c == 'e';
  }) && std::isdigit(static_cast<unsigned char>(s.back()));
}
}  // namespace

SplitName split_gbench_name(const std::string& name) {
  SplitName out;
  std::size_t pos = name.find('/');
  out.family = name.substr(0, pos);
  int positional = 0;
  while (pos != std::string::npos) {
    const std::size_t next = name.find('/', pos + 1);
    const std::string part =
        name.substr(pos + 1, next == std::string::npos ? std::string::npos : next - pos - 1);
    pos = next;
    if (part.empty()) continue;
    const auto colon = part.find(':');
    if (colon != std::string::npos && colon > 0) {
      out.params[part.substr(0, colon)] = part.substr(colon + 1);
    } else if (is_number(part)) {
      out.params["arg" + std::to_string(positional++)] = part;
    } else {
      out.params[part] = "true";  // real_time, manual_time, process_time, ...
    }
  }
  return out;
}

}  // namespace perfgate::baselines

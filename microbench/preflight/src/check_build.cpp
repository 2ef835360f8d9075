#include <algorithm>
#include <cctype>

#include "perfgate/preflight/doctor.hpp"

namespace perfgate::preflight {

std::vector<Finding> check_build(const BuildInfo& build) {
  std::string type = build.build_type;
  std::transform(type.begin(), type.end(), type.begin(),
                 [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  std::vector<Finding> out;
  if (type == "release" || type == "relwithdebinfo" || type == "minsizerel") {
    out.push_back({"build.type", Level::info, "perfgate built as " + build.build_type});
  } else {
    out.push_back({"build.type", Level::warning,
                   "perfgate built as '" +
                       (build.build_type.empty() ? "unknown" : build.build_type) +
                       "', not an optimised build: host-side timings are slower than in Release"});
  }
  // Sanitizers slow host code severalfold; numbers from such a build are not comparable.
  if (build.cxx_flags.find("-fsanitize") != std::string::npos)
    out.push_back({"build.sanitizers", Level::warning,
                   "perfgate built with sanitizers (" + build.cxx_flags + ")"});
  return out;
}

}  // namespace perfgate::preflight

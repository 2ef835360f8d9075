#include "perfgate/collectives/min_busbw.hpp"

#include <cerrno>
#include <cmath>
#include <cstdlib>

#include <fmt/format.h>

#include "perfgate/core/error.hpp"

namespace perfgate::collectives {

std::optional<double> parse_min_busbw(const char* text) {
  if (text == nullptr) return std::nullopt;
  char* end = nullptr;
  errno = 0;
  const double value = std::strtod(text, &end);
  const bool whole = end != text && *end == '\0';
  if (!whole || errno == ERANGE || !std::isfinite(value) || value < 0)
    throw InputError(fmt::format("{}={}: not a bus bandwidth in GB/s (a number from 0)",
                                 kMinBusbwVariable, text));
  return value;
}

bool meets_min_busbw(double avg_busbw, double min_busbw) {
  return avg_busbw >= 0.9 * min_busbw;
}

std::string min_busbw_verdict(double avg_busbw, std::optional<double> min_busbw) {
  if (!min_busbw) return "";
  return meets_min_busbw(avg_busbw, *min_busbw) ? "OK" : "FAILED";
}

}  // namespace perfgate::collectives

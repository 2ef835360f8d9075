#include "timestamps.hpp"

#include <ctime>
#include <regex>

#include <fmt/format.h>

#include "perfgate/core/bounded_regex.hpp"

namespace perfgate::baselines {

std::optional<std::string> normalise_timestamp(const std::string& text) {
  static const std::regex re(
      R"(^\s*(\d{4})[-/](\d{2})[-/](\d{2})[T \-](\d{2}):(\d{2}):(\d{2})(\.\d+)?\s*(Z|[+-]\d{2}:?\d{2})?\s*$)");
  std::smatch m;
  if (!bounded_regex_match(text, m, re)) return std::nullopt;
  std::tm tm{};
  tm.tm_year = std::stoi(m[1]) - 1900;
  tm.tm_mon = std::stoi(m[2]) - 1;
  tm.tm_mday = std::stoi(m[3]);
  tm.tm_hour = std::stoi(m[4]);
  tm.tm_min = std::stoi(m[5]);
  tm.tm_sec = std::stoi(m[6]);
  std::time_t t = timegm(&tm);
  const std::string zone = m[8];
  if (!zone.empty() && zone != "Z") {
    const int sign = zone[0] == '-' ? -1 : 1;
    const std::string digits = zone.substr(1);
    const int hours = std::stoi(digits.substr(0, 2));
    const int minutes = std::stoi(digits.substr(digits.size() - 2));
    t -= sign * (hours * 3600 + minutes * 60);
  }
  std::tm utc{};
  gmtime_r(&t, &utc);
  return fmt::format("{:04}-{:02}-{:02}T{:02}:{:02}:{:02}Z", utc.tm_year + 1900, utc.tm_mon + 1,
                     utc.tm_mday, utc.tm_hour, utc.tm_min, utc.tm_sec);
}

}  // namespace perfgate::baselines

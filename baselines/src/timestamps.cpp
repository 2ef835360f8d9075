#include "timestamps.hpp"

#include <ctime>
#include <regex>

#include <fmt/format.h>

#include "perfgate/baselines/ingest.hpp"
#include "perfgate/core/bounded_regex.hpp"

namespace perfgate::baselines {

namespace {

enum class Zone { optional, required };

std::optional<std::string> to_utc(const std::string& text, Zone zone_rule) {
  static const std::regex re(
      R"(^\s*(\d{4})[-/](\d{2})[-/](\d{2})[T \-](\d{2}):(\d{2}):(\d{2})(\.\d+)?\s*(Z|[+-]\d{2}:?\d{2})?\s*$)");
  std::smatch m;
  if (!bounded_regex_match(text, m, re)) return std::nullopt;
  if (zone_rule == Zone::required && !m[8].matched) return std::nullopt;
  std::tm tm{};
  tm.tm_year = std::stoi(m[1]) - 1900;
  tm.tm_mon = std::stoi(m[2]) - 1;
  tm.tm_mday = std::stoi(m[3]);
  tm.tm_hour = std::stoi(m[4]);
  tm.tm_min = std::stoi(m[5]);
  tm.tm_sec = std::stoi(m[6]);
  const std::tm given = tm;
  std::time_t t = timegm(&tm);
  // timegm carries a 13th month or a 31st of June into the next: such a date is no date.
  if (tm.tm_mon != given.tm_mon || tm.tm_mday != given.tm_mday || tm.tm_hour != given.tm_hour ||
      tm.tm_min != given.tm_min || tm.tm_sec != given.tm_sec)
    return std::nullopt;
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

}  // namespace

std::optional<std::string> normalise_timestamp(const std::string& text) {
  return to_utc(text, Zone::optional);
}

std::optional<std::string> utc_time_from_text(const std::string& text) {
  return to_utc(text, Zone::required);
}

}  // namespace perfgate::baselines

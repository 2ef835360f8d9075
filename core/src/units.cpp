#include "perfgate/core/units.hpp"

#include <array>
#include <utility>

#include "perfgate/core/error.hpp"

namespace perfgate {

std::string_view to_string(Direction d) {
  return d == Direction::lower_is_better ? "lower_is_better" : "higher_is_better";
}

Direction direction_from_string(std::string_view s) {
  if (s == "lower_is_better") return Direction::lower_is_better;
  if (s == "higher_is_better") return Direction::higher_is_better;
  throw InputError("unknown direction '" + std::string(s) +
                   "' (expected lower_is_better or higher_is_better)");
}

std::optional<double> time_unit_to_ns(std::string_view unit) {
  static constexpr std::array<std::pair<std::string_view, double>, 4> factors{
      {{"ns", 1.0}, {"us", 1e3}, {"ms", 1e6}, {"s", 1e9}}};
  for (const auto& [name, factor] : factors)
    if (unit == name) return factor;
  return std::nullopt;
}

std::optional<Direction> direction_for_unit(std::string_view unit) {
  if (time_unit_to_ns(unit)) return Direction::lower_is_better;
  if (unit.ends_with("/s") || unit == "ratio" || unit == "fraction")
    return Direction::higher_is_better;
  if (unit == "bytes" || unit == "B") return Direction::lower_is_better;
  return std::nullopt;
}

}  // namespace perfgate

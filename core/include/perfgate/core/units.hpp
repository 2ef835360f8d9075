#pragma once
// Units and the direction in which a metric improves.
#include <optional>
#include <string>
#include <string_view>

namespace perfgate {

enum class Direction { lower_is_better, higher_is_better };

std::string_view to_string(Direction d);
Direction direction_from_string(std::string_view s);  // throws InputError

// Direction implied by a unit ("ns" → lower, "GB/s" → higher); nullopt when the unit says nothing.
std::optional<Direction> direction_for_unit(std::string_view unit);

// Factor that converts a time in `unit` (ns, us, ms, s) to nanoseconds; nullopt if not a time unit.
std::optional<double> time_unit_to_ns(std::string_view unit);

}  // namespace perfgate

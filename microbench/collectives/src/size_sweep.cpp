#include "perfgate/collectives/size_sweep.hpp"

#include <charconv>
#include <limits>

#include <fmt/format.h>

#include "perfgate/core/error.hpp"

namespace perfgate::collectives {

std::size_t parse_size(std::string_view text, std::string_view what) {
  std::size_t value = 0;
  const char* first = text.data();
  const char* last = text.data() + text.size();
  auto [end, ec] = std::from_chars(first, last, value);
  std::size_t scale = 1;
  if (ec == std::errc() && end != last) {
    std::string_view suffix(end, static_cast<std::size_t>(last - end));
    if (suffix == "K" || suffix == "k")
      scale = std::size_t{1} << 10;
    else if (suffix == "M" || suffix == "m")
      scale = std::size_t{1} << 20;
    else if (suffix == "G" || suffix == "g")
      scale = std::size_t{1} << 30;
    else
      ec = std::errc::invalid_argument;
  }
  if (ec != std::errc() || end == first ||
      value > std::numeric_limits<std::size_t>::max() / scale) {
    throw InputError(fmt::format(
        "{}: '{}' is not a size (a count of bytes, optionally with K, M or G)", what, text));
  }
  return value * scale;
}

std::vector<std::size_t> size_sweep(std::size_t min_bytes, std::size_t max_bytes,
                                    std::size_t factor) {
  if (min_bytes == 0) throw InputError("--minbytes: must be at least 1");
  if (min_bytes > max_bytes) {
    throw InputError(
        fmt::format("--minbytes {} is larger than --maxbytes {}", min_bytes, max_bytes));
  }
  if (factor < 2) throw InputError(fmt::format("--stepfactor: {} is below 2", factor));
  std::vector<std::size_t> sizes;
  for (std::size_t s = min_bytes; s <= max_bytes; s *= factor) {
    sizes.push_back(s);
    if (s > max_bytes / factor) break;
  }
  return sizes;
}

}  // namespace perfgate::collectives

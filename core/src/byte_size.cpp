#include "perfgate/core/byte_size.hpp"

#include <charconv>

#include <fmt/format.h>

#include "perfgate/core/error.hpp"

namespace perfgate {
namespace {

std::uint64_t suffix_scale(std::string_view suffix) {
  if (suffix.empty()) return 1;
  if (suffix == "K" || suffix == "k") return std::uint64_t{1} << 10;
  if (suffix == "M" || suffix == "m") return std::uint64_t{1} << 20;
  if (suffix == "G" || suffix == "g") return std::uint64_t{1} << 30;
  return 0;
}

}  // namespace

std::uint64_t parse_byte_size(std::string_view text, std::string_view what) {
  std::uint64_t value = 0;
  const char* last = text.data() + text.size();
  const auto [end, ec] = std::from_chars(text.data(), last, value);
  if (end == text.data())
    throw InputError(fmt::format(
        "{}: '{}' is not a size (a count of bytes, optionally with K, M or G: 8, 64K, 1M, 2G)",
        what, text));
  const std::uint64_t scale = suffix_scale(std::string_view(end, std::size_t(last - end)));
  if (scale == 0)
    throw InputError(fmt::format("{}: '{}' has an unknown suffix (K, M or G)", what, text));
  // from_chars reports a count too large for 64 bits as out of range; the product is checked
  // before it is formed, so no multiplication can wrap.
  if (ec == std::errc::result_out_of_range || value > kLargestByteSize / scale)
    throw InputError(fmt::format("{}: '{}' is more than the largest size, {} bytes", what, text,
                                 kLargestByteSize));
  return value * scale;
}

}  // namespace perfgate

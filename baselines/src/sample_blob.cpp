#include "sample_blob.hpp"

#include <bit>
#include <cstdint>
#include <cstring>

#include "perfgate/core/error.hpp"

namespace perfgate::baselines {

namespace {
std::uint64_t to_little_endian(std::uint64_t v) {
  if constexpr (std::endian::native == std::endian::little) return v;
  std::uint64_t out = 0;
  for (int i = 0; i < 8; ++i) out |= ((v >> (8 * i)) & 0xffu) << (8 * (7 - i));
  return out;
}
}  // namespace

std::string encode_samples(const std::vector<double>& samples) {
  std::string out(samples.size() * 8, '\0');
  if constexpr (std::endian::native == std::endian::little) {
    if (!samples.empty()) std::memcpy(out.data(), samples.data(), out.size());
  } else {
    for (std::size_t i = 0; i < samples.size(); ++i) {
      const auto le = to_little_endian(std::bit_cast<std::uint64_t>(samples[i]));
      std::memcpy(out.data() + 8 * i, &le, 8);
    }
  }
  return out;
}

std::vector<double> decode_samples(const void* data, std::size_t bytes) {
  if (bytes % 8 != 0)
    throw ToolError("stored samples: " + std::to_string(bytes) +
                    " bytes is not a whole number of doubles");
  std::vector<double> out(bytes / 8);
  if (bytes == 0) return out;
  if constexpr (std::endian::native == std::endian::little) {
    std::memcpy(out.data(), data, bytes);
  } else {
    for (std::size_t i = 0; i < out.size(); ++i) {
      std::uint64_t le = 0;
      std::memcpy(&le, static_cast<const char*>(data) + 8 * i, 8);
      out[i] = std::bit_cast<double>(to_little_endian(le));
    }
  }
  return out;
}

}  // namespace perfgate::baselines

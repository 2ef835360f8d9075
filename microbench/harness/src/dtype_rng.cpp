// Storage dtypes (emulated on CPU by rounding) and the seeded input generator.
#include <bit>
#include <cstring>

#include <fmt/format.h>

#include "perfgate/core/error.hpp"
#include "perfgate/microbench/registry.hpp"

namespace perfgate::microbench {

DType dtype_from_string(const std::string& text) {
  if (text == "f32") return DType::f32;
  if (text == "bf16") return DType::bf16;
  if (text == "f16") return DType::f16;
  throw InputError(fmt::format("dtype '{}': expected f32, bf16 or f16", text));
}

std::size_t dtype_size(DType t) {
  return t == DType::f32 ? 4 : 2;
}

namespace {
// Round-to-nearest-even onto a float with `keep` mantissa bits (exponent range left alone:
// f16's narrower range does not matter for inputs drawn in ±[0.25, 1]).
float round_mantissa(float v, int keep) {
  auto bits = std::bit_cast<std::uint32_t>(v);
  const int drop = 23 - keep;
  const std::uint32_t lsb = (bits >> drop) & 1u;
  bits += (1u << (drop - 1)) - 1u + lsb;
  bits &= ~((1u << drop) - 1u);
  return std::bit_cast<float>(bits);
}
}  // namespace

float round_to(DType t, float value) {
  switch (t) {
    case DType::bf16:
      return round_mantissa(value, 7);
    case DType::f16:
      return round_mantissa(value, 10);
    case DType::f32:
      break;
  }
  return value;
}

double relative_error_bound(DType t) {
  switch (t) {
    case DType::bf16:
      return 2e-2;
    case DType::f16:
      return 4e-3;
    case DType::f32:
      break;
  }
  return 2e-4;
}

float Rng::scalar(float lo, float hi) {
  std::uniform_real_distribution<float> mag(lo, hi);
  const float v = mag(engine_);
  return (engine_() & 1u) ? v : -v;
}

std::vector<float> Rng::floats(std::int64_t n, float lo, float hi) {
  std::vector<float> out(static_cast<std::size_t>(n));
  for (auto& v : out) v = scalar(lo, hi);
  return out;
}

std::int64_t Rng::integer(std::int64_t lo, std::int64_t hi) {
  return std::uniform_int_distribution<std::int64_t>(lo, hi)(engine_);
}

}  // namespace perfgate::microbench

#pragma once
// The per-element conversions of the narrow types, shared by datatype.cpp (encode, decode) and
// narrow_reduce.cpp (the MPI backend's reductions): inline where a loop over one type should
// not pay a call and a type switch per element.
#include <bit>
#include <cmath>
#include <cstdint>
#include <span>

#include "perfgate/collectives/datatype.hpp"

namespace perfgate::collectives::codec {

// bf16 is float's upper half, so its decoding is exact by construction.
inline float decode_bf16(std::uint32_t code) {
  return std::bit_cast<float>(code << 16);
}

// Round to nearest even on float's lower 16 bits (the same result as the generic minifloat
// encoder, subnormals and overflow to infinity included, without its frexp and ldexp).
inline std::uint32_t encode_bf16(float value) {
  if (std::isnan(value)) return 0x7FFF;  // the generic encoder's NaN
  const auto bits = std::bit_cast<std::uint32_t>(value);
  return (bits + 0x7FFFu + ((bits >> 16) & 1u)) >> 16;
}

// fp16 with integer operations on float's bits, round to nearest even: the same result as the
// generic minifloat encoder on every code and midpoint (collectives_unit). The compiler's
// _Float16 conversion is a library call on x86 without F16C: 80 M elements/s in the sum
// reduction where this gives 530 M (perfgate_narrow_reduce_bench, one core).
inline std::uint32_t encode_f16(float value) {
  if (std::isnan(value)) return 0x7FFF;  // the generic encoder's NaN
  const auto bits = std::bit_cast<std::uint32_t>(value);
  const std::uint32_t sign = (bits >> 16) & 0x8000u, magnitude = bits & 0x7FFFFFFFu;
  constexpr std::uint32_t kSmallestNormal = 0x38800000u;  // 2^-14
  constexpr std::uint32_t kOverflow = 0x47800000u;        // 2^16: beyond fp16's rounding range
  if (magnitude >= kOverflow) return sign | 0x7C00u;      // infinity
  if (magnitude >= kSmallestNormal) {
    // Rebias the exponent (127 -> 15) and round away the 13 mantissa bits fp16 lacks; a carry
    // out of the mantissa moves to the next binade, and 65520 and above reach infinity.
    const std::uint32_t rebased = magnitude - (112u << 23);
    return sign | ((rebased + 0xFFFu + ((rebased >> 13) & 1u)) >> 13);
  }
  // Subnormal fp16: multiples of 2^-24, code = significand >> shift, rounded to even.
  const std::uint32_t exponent = magnitude >> 23;
  const std::uint32_t shift = 126u - exponent;  // 14 at 2^-15 ... above 24 rounds to zero
  if (exponent == 0 || shift > 24) return sign;
  const std::uint32_t significand = (magnitude & 0x7FFFFFu) | 0x800000u;
  const std::uint32_t kept = significand >> shift, rest = significand & ((1u << shift) - 1);
  const std::uint32_t half = 1u << (shift - 1);
  return sign | (kept + ((rest > half || (rest == half && (kept & 1u))) ? 1u : 0u));
}

// Every code of a narrow type decoded once (2^8 or 2^16 floats): a table lookup is what a
// GPU's conversion costs.
std::span<const float> decode_table(DataType t);

// fp8 encodes through a table indexed by float's upper 16 bits, its lowest bit also set when
// any of the lower 16 is (their sticky bit): rounding to 2 or 3 mantissa bits depends only on
// the sign, the exponent, the bits kept, the guard bit and whether anything below it is set,
// so each entry, the generic encoding of one float with those bits, is every such float's code.
std::span<const std::uint8_t> fp8_encode_table(DataType t);
inline std::uint32_t fp8_table_index(float value) {
  const auto bits = std::bit_cast<std::uint32_t>(value);
  return (bits >> 16) | ((bits & 0xFFFFu) != 0 ? 1u : 0u);
}

// Calls f(Code{}, decode, encode) with the unsigned integer type holding one code of t and
// inline conversions between a code and float, so that a loop over many elements of one type
// is compiled once per type with no per-element switch.
template <class F>
void with_codec(DataType t, F&& f) {
  switch (t) {
    case DataType::f32:
      return f(
          std::uint32_t{}, [](std::uint32_t c) { return std::bit_cast<float>(c); },
          [](float v) { return std::bit_cast<std::uint32_t>(v); });
    case DataType::bf16:
      return f(
          std::uint16_t{}, [](std::uint16_t c) { return decode_bf16(c); },
          [](float v) { return encode_bf16(v); });
    case DataType::f16: {
      const float* table = decode_table(t).data();
      return f(
          std::uint16_t{}, [table](std::uint16_t c) { return table[c]; },
          [](float v) { return encode_f16(v); });
    }
    case DataType::f8e4m3:
    case DataType::f8e5m2: {
      const float* table = decode_table(t).data();
      const std::uint8_t* encoding = fp8_encode_table(t).data();
      return f(
          std::uint8_t{}, [table](std::uint8_t c) { return table[c]; },
          [encoding](float v) { return encoding[fp8_table_index(v)]; });
    }
    default:  // f64 and the integers are not coded through float (datatype.cpp converts them)
      return;
  }
}

}  // namespace perfgate::collectives::codec

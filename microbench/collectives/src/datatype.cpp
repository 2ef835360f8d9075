#include "perfgate/collectives/datatype.hpp"

#include <array>
#include <bit>
#include <cmath>
#include <cstring>
#include <limits>
#include <type_traits>

#include <fmt/format.h>

#include "narrow_codec.hpp"
#include "perfgate/core/error.hpp"

namespace perfgate::collectives {
namespace {

// A binary floating-point format narrower than float.
struct Minifloat {
  int exponent_bits, mantissa_bits;
  bool ieee_specials;  // all-ones exponent is inf/NaN (bf16, fp16, e5m2); e4m3 ("fn") has no inf
  int bias() const { return (1 << (exponent_bits - 1)) - 1; }
  int sign_shift() const { return exponent_bits + mantissa_bits; }
};

Minifloat format_of(DataType t) {
  switch (t) {
    case DataType::bf16:
      return {8, 7, true};
    case DataType::f16:
      return {5, 10, true};
    case DataType::f8e4m3:
      return {4, 3, false};
    case DataType::f8e5m2:
      return {5, 2, true};
    default:  // f32 (the formats beyond it are not minifloats)
      break;
  }
  return {8, 23, true};
}

std::uint32_t max_finite_code(const Minifloat& f) {
  const std::uint32_t all_exp = (1u << f.exponent_bits) - 1;
  const std::uint32_t all_man = (1u << f.mantissa_bits) - 1;
  // e4m3fn: exponent all ones is finite except mantissa all ones (NaN).
  if (!f.ieee_specials) return (all_exp << f.mantissa_bits) | (all_man - 1);
  return ((all_exp - 1) << f.mantissa_bits) | all_man;
}

std::uint32_t encode_minifloat(const Minifloat& f, float value) {
  const std::uint32_t sign = std::signbit(value) ? 1u << f.sign_shift() : 0u;
  const std::uint32_t all_exp = (1u << f.exponent_bits) - 1;
  if (std::isnan(value)) return (all_exp << f.mantissa_bits) | ((1u << f.mantissa_bits) - 1);
  const double a = std::fabs(static_cast<double>(value));
  if (a == 0) return sign;
  int e2 = 0;
  std::frexp(a, &e2);
  int e = e2 - 1;  // a = 1.m × 2^e
  const int emin = 1 - f.bias();
  std::uint32_t code = 0;
  if (e < emin) {
    // Subnormal: quanta of 2^(emin − M); rounding up to 2^M lands exactly on the smallest normal.
    code = static_cast<std::uint32_t>(std::nearbyint(std::ldexp(a, f.mantissa_bits - emin)));
  } else {
    auto q = static_cast<std::uint32_t>(std::nearbyint(std::ldexp(a, f.mantissa_bits - e)));
    if (q == (2u << f.mantissa_bits)) {
      q = 1u << f.mantissa_bits;
      ++e;
    }
    code = (static_cast<std::uint32_t>(e + f.bias()) << f.mantissa_bits) |
           (q - (1u << f.mantissa_bits));
  }
  const std::uint32_t max_code = max_finite_code(f);
  if (code > max_code) code = f.ieee_specials ? all_exp << f.mantissa_bits : max_code;
  return sign | code;
}

float decode_minifloat(const Minifloat& f, std::uint32_t bits) {
  const bool negative = (bits >> f.sign_shift()) & 1u;
  const std::uint32_t exp_field = (bits >> f.mantissa_bits) & ((1u << f.exponent_bits) - 1);
  const std::uint32_t man = bits & ((1u << f.mantissa_bits) - 1);
  const std::uint32_t all_exp = (1u << f.exponent_bits) - 1;
  double v = 0;
  if (f.ieee_specials && exp_field == all_exp) {
    v = man ? std::numeric_limits<double>::quiet_NaN() : std::numeric_limits<double>::infinity();
  } else if (!f.ieee_specials && exp_field == all_exp && man == (1u << f.mantissa_bits) - 1) {
    v = std::numeric_limits<double>::quiet_NaN();
  } else if (exp_field == 0) {
    v = std::ldexp(static_cast<double>(man), 1 - f.bias() - f.mantissa_bits);
  } else {
    v = std::ldexp(static_cast<double>(man | (1u << f.mantissa_bits)),
                   static_cast<int>(exp_field) - f.bias() - f.mantissa_bits);
  }
  return static_cast<float>(negative ? -v : v);
}

}  // namespace

std::string_view type_name(DataType t) {
  switch (t) {
    case DataType::f32:
      return "float";
    case DataType::bf16:
      return "bfloat16";
    case DataType::f16:
      return "half";
    case DataType::f8e4m3:
      return "f8e4m3";
    case DataType::f8e5m2:
      return "f8e5m2";
    case DataType::f64:
      return "double";
    case DataType::i8:
      return "int8";
    case DataType::u8:
      return "uint8";
    case DataType::i32:
      return "int32";
    case DataType::u32:
      return "uint32";
    case DataType::i64:
      return "int64";
    case DataType::u64:
      return "uint64";
  }
  return "float";
}

std::string_view series_dtype(DataType t) {
  switch (t) {
    case DataType::f32:
      return "f32";
    case DataType::bf16:
      return "bf16";
    case DataType::f16:
      return "f16";
    case DataType::f8e4m3:
      return "f8e4m3";
    case DataType::f8e5m2:
      return "f8e5m2";
    case DataType::f64:
      return "f64";
    case DataType::i8:
      return "i8";
    case DataType::u8:
      return "u8";
    case DataType::i32:
      return "i32";
    case DataType::u32:
      return "u32";
    case DataType::i64:
      return "i64";
    case DataType::u64:
      return "u64";
  }
  return "f32";
}

std::size_t type_size(DataType t) {
  switch (t) {
    case DataType::f8e4m3:
    case DataType::f8e5m2:
    case DataType::i8:
    case DataType::u8:
      return 1;
    case DataType::bf16:
    case DataType::f16:
      return 2;
    case DataType::f32:
    case DataType::i32:
    case DataType::u32:
      return 4;
    case DataType::f64:
    case DataType::i64:
    case DataType::u64:
      return 8;
  }
  return 4;
}

bool is_integer(DataType t) {
  return static_cast<int>(t) > static_cast<int>(DataType::f64);  // the types after f64
}

bool is_unsigned(DataType t) {
  return t == DataType::u8 || t == DataType::u32 || t == DataType::u64;
}

bool is_narrow_float(DataType t) {
  return t == DataType::bf16 || t == DataType::f16 || t == DataType::f8e4m3 ||
         t == DataType::f8e5m2;
}

double type_epsilon(DataType t) {
  if (is_integer(t)) return 1.0;
  if (t == DataType::f32) return std::ldexp(1.0, -23);
  if (t == DataType::f64) return std::ldexp(1.0, -52);
  return std::ldexp(1.0, -format_of(t).mantissa_bits);
}

double type_smallest_subnormal(DataType t) {
  if (is_integer(t)) return 1.0;
  if (t == DataType::f32) return std::numeric_limits<float>::denorm_min();
  if (t == DataType::f64) return std::numeric_limits<double>::denorm_min();
  const Minifloat f = format_of(t);
  return std::ldexp(1.0, 1 - f.bias() - f.mantissa_bits);
}

const std::vector<DataType>& all_datatypes() {
  static const std::vector<DataType> all{DataType::i8,   DataType::u8,     DataType::i32,
                                         DataType::u32,  DataType::i64,    DataType::u64,
                                         DataType::f16,  DataType::f32,    DataType::f64,
                                         DataType::bf16, DataType::f8e4m3, DataType::f8e5m2};
  return all;
}

DataType datatype_from_string(std::string_view s) {
  if (s == "fp32") return DataType::f32;
  if (s == "fp16") return DataType::f16;
  if (s == "fp8" || s == "fp8e4m3") return DataType::f8e4m3;
  if (s == "fp8e5m2") return DataType::f8e5m2;
  if (s == "fp64") return DataType::f64;
  for (const DataType t : all_datatypes())
    if (s == type_name(t) || s == series_dtype(t)) return t;
  throw InputError(fmt::format(
      "--datatype: unknown datatype '{}' (int8, uint8, int32, uint32, int64, uint64, half, "
      "float, double, bfloat16, f8e4m3, f8e5m2)",
      s));
}

namespace codec {

constexpr std::size_t kDataTypes = 5;  // f32 and the four narrow types, indexed by DataType

std::span<const std::uint8_t> fp8_encode_table(DataType t) {
  static const auto tables = [] {
    std::array<std::vector<std::uint8_t>, kDataTypes> all;
    for (const DataType type : {DataType::f8e4m3, DataType::f8e5m2}) {
      std::vector<std::uint8_t>& table = all[static_cast<std::size_t>(type)];
      table.resize(std::size_t{1} << 16);
      for (std::uint32_t index = 0; index < table.size(); ++index)
        table[index] = static_cast<std::uint8_t>(
            encode_minifloat(format_of(type), std::bit_cast<float>(index << 16)));
    }
    return all;
  }();
  return tables[static_cast<std::size_t>(t)];
}

std::span<const float> decode_table(DataType t) {
  static const auto tables = [] {
    std::array<std::vector<float>, kDataTypes> all;
    for (const DataType type :
         {DataType::bf16, DataType::f16, DataType::f8e4m3, DataType::f8e5m2}) {
      std::vector<float>& table = all[static_cast<std::size_t>(type)];
      table.resize(std::size_t{1} << (8 * type_size(type)));
      for (std::size_t code = 0; code < table.size(); ++code)
        table[code] = decode_minifloat(format_of(type), static_cast<std::uint32_t>(code));
    }
    return all;
  }();
  return tables[static_cast<std::size_t>(t)];
}

}  // namespace codec

namespace {

// f32 and the narrow types go through float; f64 and the integers are converted directly.
bool float_coded(DataType t) {
  return t == DataType::f32 || is_narrow_float(t);
}

void require_float_coded(DataType t, const char* what) {
  if (!float_coded(t))
    throw ToolError(
        fmt::format("{}: {} has no float code (use the array conversions)", what, type_name(t)));
}

// The value an integer element of type T holds: truncated, wrapped modulo 2^bits (C++20's
// conversion from a 64-bit integer), saturated first where a 64-bit integer cannot hold it (below
// -2^63; from 2^63 for the signed types, 2^64 for the unsigned); NaN is 0.
template <class T>
T to_integer(double v) {
  if (std::isnan(v)) return 0;
  constexpr double two_63 = 9223372036854775808.0, two_64 = 18446744073709551616.0;
  if (v < -two_63) return static_cast<T>(std::numeric_limits<std::int64_t>::min());
  if constexpr (std::is_unsigned_v<T>) {
    if (v >= two_64) return static_cast<T>(std::numeric_limits<std::uint64_t>::max());
    if (v >= 0) return static_cast<T>(static_cast<std::uint64_t>(v));
    // Negative: through int64, so that it wraps as unsigned arithmetic does.
    return static_cast<T>(static_cast<std::uint64_t>(static_cast<std::int64_t>(v)));
  } else {
    if (v >= two_63) return static_cast<T>(std::numeric_limits<std::int64_t>::max());
    return static_cast<T>(static_cast<std::int64_t>(v));
  }
}

// Calls f(T{}) with the C++ type of f64 or an integer type.
template <class F>
void with_wide_type(DataType t, F&& f) {
  switch (t) {
    case DataType::f64:
      return f(double{});
    case DataType::i8:
      return f(std::int8_t{});
    case DataType::u8:
      return f(std::uint8_t{});
    case DataType::i32:
      return f(std::int32_t{});
    case DataType::u32:
      return f(std::uint32_t{});
    case DataType::i64:
      return f(std::int64_t{});
    case DataType::u64:
      return f(std::uint64_t{});
    default:
      return;
  }
}

void encode_wide(DataType t, std::span<const double> values, std::span<std::byte> out) {
  with_wide_type(t, [&](auto zero) {
    using T = decltype(zero);
    for (std::size_t i = 0; i < values.size(); ++i) {
      T v{};
      if constexpr (std::is_floating_point_v<T>)
        v = values[i];
      else
        v = to_integer<T>(values[i]);
      std::memcpy(out.data() + i * sizeof(T), &v, sizeof(T));
    }
  });
}

void decode_wide(DataType t, std::span<const std::byte> in, std::span<double> out) {
  with_wide_type(t, [&](auto zero) {
    using T = decltype(zero);
    for (std::size_t i = 0; i < out.size(); ++i) {
      T v{};
      std::memcpy(&v, in.data() + i * sizeof(T), sizeof(T));
      out[i] = static_cast<double>(v);
    }
  });
}

}  // namespace

std::uint32_t encode(DataType t, float value) {
  require_float_coded(t, "encode");
  std::uint32_t bits = 0;
  codec::with_codec(t, [&](auto, auto, auto encode) { bits = encode(value); });
  return bits;
}

float decode(DataType t, std::uint32_t bits) {
  require_float_coded(t, "decode");
  float value = 0;
  codec::with_codec(t, [&](auto code, auto decode, auto) {
    value = decode(static_cast<decltype(code)>(bits));  // the low type_size(t) bytes
  });
  return value;
}

void encode_array(DataType t, std::span<const double> values, std::span<std::byte> out) {
  if (!float_coded(t)) return encode_wide(t, values, out);
  codec::with_codec(t, [&](auto code, auto, auto encode) {
    using Code = decltype(code);
    for (std::size_t i = 0; i < values.size(); ++i) {
      const auto bits = static_cast<Code>(encode(static_cast<float>(values[i])));
      std::memcpy(out.data() + i * sizeof(Code), &bits, sizeof(Code));
    }
  });
}

void decode_array(DataType t, std::span<const std::byte> in, std::span<double> out) {
  if (!float_coded(t)) return decode_wide(t, in, out);
  codec::with_codec(t, [&](auto code, auto decode, auto) {
    using Code = decltype(code);
    for (std::size_t i = 0; i < out.size(); ++i) {
      Code bits = 0;
      std::memcpy(&bits, in.data() + i * sizeof(Code), sizeof(Code));
      out[i] = decode(bits);
    }
  });
}

std::vector<double> decode_array(DataType t, std::span<const std::byte> in) {
  std::vector<double> values(in.size() / type_size(t));
  decode_array(t, in, values);
  return values;
}

}  // namespace perfgate::collectives

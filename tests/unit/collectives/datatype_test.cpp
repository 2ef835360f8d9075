#include <cmath>
#include <cstdint>

#include <catch2/catch.hpp>

#include "perfgate/collectives/datatype.hpp"
#include "perfgate/core/error.hpp"

using namespace perfgate::collectives;

TEST_CASE("narrow floats encode to their standard bit patterns") {
  CHECK(encode(DataType::bf16, 1.0f) == 0x3F80);
  CHECK(encode(DataType::bf16, -2.0f) == 0xC000);
  CHECK(encode(DataType::f16, 1.0f) == 0x3C00);
  CHECK(encode(DataType::f16, 65504.0f) == 0x7BFF);
  CHECK(encode(DataType::f16, 1e6f) == 0x7C00);  // overflow: infinity
  CHECK(encode(DataType::f8e4m3, 1.0f) == 0x38);
  CHECK(encode(DataType::f8e4m3, 448.0f) == 0x7E);
  CHECK(encode(DataType::f8e4m3, 1000.0f) == 0x7E);  // e4m3fn saturates: it has no infinity
  CHECK(encode(DataType::f8e5m2, 1.0f) == 0x3C);
  CHECK(encode(DataType::f8e5m2, 57344.0f) == 0x7B);
  CHECK(encode(DataType::f16, 0.0f) == 0);
  CHECK(encode(DataType::f16, -0.0f) == 0x8000);
}

TEST_CASE("rounding is to nearest even, subnormals included") {
  // 1 + 2^-8 is halfway between two bf16 values: ties to the even mantissa (1.0).
  CHECK(decode(DataType::bf16, encode(DataType::bf16, 1.0f + 1.0f / 256)) == 1.0f);
  CHECK(decode(DataType::bf16, encode(DataType::bf16, 1.0f + 3.0f / 256)) == 1.0f + 4.0f / 256);
  const float tiny = std::ldexp(1.0f, -24);  // smallest fp16 subnormal
  CHECK(encode(DataType::f16, tiny) == 1);
  CHECK(decode(DataType::f16, 1) == tiny);
  CHECK(decode(DataType::f8e4m3, 0x01) == std::ldexp(1.0f, -9));
}

TEST_CASE("every small integer the data check uses survives every type") {
  for (DataType t : all_datatypes()) {
    INFO(type_name(t));
    std::vector<double> values;
    for (int v = 0; v <= 8; ++v) values.push_back(v);
    std::vector<std::byte> raw(values.size() * type_size(t));
    encode_array(t, values, raw);
    CHECK(decode_array(t, raw) == values);
  }
  for (DataType t : {DataType::f32, DataType::bf16, DataType::f16, DataType::f8e4m3}) {
    for (int v = 1; v <= 8; ++v)
      CHECK(decode(t, encode(t, static_cast<float>(v))) == static_cast<float>(v));
  }
  CHECK_THROWS_AS(encode(DataType::i32, 1.0f), perfgate::ToolError);  // no 32-bit code of its own
  CHECK(std::isnan(decode(DataType::f8e4m3, 0x7F)));
  CHECK(std::isinf(decode(DataType::f16, 0x7C00)));
}

TEST_CASE("arrays round-trip through raw bytes") {
  const std::vector<double> values{1, 2, 3.5, -4};
  for (DataType t : all_datatypes()) {
    if (is_integer(t)) continue;
    std::vector<std::byte> raw(values.size() * type_size(t));
    encode_array(t, values, raw);
    CHECK(decode_array(t, raw) == values);
  }
}

TEST_CASE("integer types truncate, wrap as their arithmetic does, and hold 64 bits") {
  const auto through = [](DataType t, std::vector<double> values) {
    std::vector<std::byte> raw(values.size() * type_size(t));
    encode_array(t, values, raw);
    return decode_array(t, raw);
  };
  CHECK(through(DataType::i8, {3.9, -3.9, 127, 128, 255, -129}) ==
        std::vector<double>{3, -3, 127, -128, -1, 127});
  CHECK(through(DataType::u8, {255, 256, 257, -1}) == std::vector<double>{255, 0, 1, 255});
  CHECK(through(DataType::i32, {2147483647.0, 2147483648.0}) ==
        std::vector<double>{2147483647.0, -2147483648.0});
  CHECK(through(DataType::u32, {4294967295.0, 4294967296.0}) ==
        std::vector<double>{4294967295.0, 0});
  CHECK(through(DataType::i64, {9007199254740992.0, -9007199254740992.0}) ==
        std::vector<double>{9007199254740992.0, -9007199254740992.0});
  CHECK(through(DataType::u64, {18446744073709549568.0, -1}) ==
        std::vector<double>{18446744073709549568.0, 18446744073709551616.0});
  CHECK(through(DataType::i64, {1e300, -1e300, std::nan("")}) ==
        std::vector<double>{9223372036854775807.0, -9223372036854775808.0, 0});
  CHECK(through(DataType::f64, {0.1, 1e300}) == std::vector<double>{0.1, 1e300});
  CHECK(type_size(DataType::i8) == 1);
  CHECK(type_size(DataType::u32) == 4);
  CHECK(type_size(DataType::f64) == 8);
  CHECK(type_size(DataType::u64) == 8);
  CHECK(is_integer(DataType::u8));
  CHECK(!is_integer(DataType::f64));
  CHECK(is_unsigned(DataType::u8));
  CHECK(is_unsigned(DataType::u64));
  CHECK(!is_unsigned(DataType::i8));
  CHECK(!is_unsigned(DataType::f8e5m2));
  CHECK(!is_narrow_float(DataType::f64));
  CHECK(is_narrow_float(DataType::f8e5m2));
}

TEST_CASE("datatype names are nccl-tests' and perfgate's") {
  CHECK(datatype_from_string("bf16") == DataType::bf16);
  CHECK(datatype_from_string("half") == DataType::f16);
  CHECK(datatype_from_string("fp8") == DataType::f8e4m3);
  CHECK(type_name(DataType::f32) == "float");
  CHECK(datatype_from_string("double") == DataType::f64);
  CHECK(datatype_from_string("fp64") == DataType::f64);
  CHECK(datatype_from_string("uint64") == DataType::u64);
  CHECK(datatype_from_string("i8") == DataType::i8);
  CHECK(type_name(DataType::u32) == "uint32");
  CHECK_THROWS_AS(datatype_from_string("int128"), perfgate::InputError);
  // -d all runs nccl-tests' twelve types in nccl-tests' order.
  std::vector<std::string> names;
  for (const DataType t : all_datatypes()) names.emplace_back(type_name(t));
  CHECK(names == std::vector<std::string>{"int8", "uint8", "int32", "uint32", "int64", "uint64",
                                          "half", "float", "double", "bfloat16", "f8e4m3",
                                          "f8e5m2"});
}

TEST_CASE("series spell datatypes as the operator benchmarks do, and that spelling reads back") {
  CHECK(series_dtype(DataType::f32) == "f32");
  CHECK(series_dtype(DataType::bf16) == "bf16");
  CHECK(series_dtype(DataType::f16) == "f16");
  for (DataType t : all_datatypes()) CHECK(datatype_from_string(series_dtype(t)) == t);
}

TEST_CASE("every code of every narrow type: decode and encode are inverse, ties go to even") {
  // Independent of how encode and decode are computed (tables, bit tricks, frexp): the round
  // trip of every code, and round-to-nearest-even at and beside every midpoint between two
  // neighbouring finite codes of the same sign.
  for (const DataType t : {DataType::bf16, DataType::f16, DataType::f8e4m3, DataType::f8e5m2}) {
    INFO(type_name(t));
    const std::uint32_t codes = 1u << (8 * type_size(t)), sign = codes >> 1;
    std::size_t checked = 0;
    for (std::uint32_t c = 0; c < codes; ++c) {
      const float v = decode(t, c);
      if (std::isnan(v)) continue;
      CHECK(encode(t, v) == c);
      const std::uint32_t next = c + 1;  // the neighbour away from zero, same sign
      if ((next & (sign - 1)) == 0) continue;
      const float w = decode(t, next);
      if (std::isnan(w) || std::isinf(w)) continue;
      const float mid = static_cast<float>((double(v) + double(w)) / 2);  // exact in float
      REQUIRE(double(mid) == (double(v) + double(w)) / 2);
      CHECK(encode(t, mid) == ((c & 1u) == 0 ? c : next));
      CHECK(encode(t, std::nextafter(mid, 0.0f)) == c);
      CHECK(encode(t, std::nextafter(mid, std::signbit(v) ? -INFINITY : INFINITY)) == next);
      ++checked;
    }
    CHECK(checked > codes / 2 - 16);
  }
  // fp16 at its overflow edge: half-way to 65536 (the next step) goes to infinity.
  CHECK(encode(DataType::f16, 65519.0f) == 0x7BFF);
  CHECK(encode(DataType::f16, 65520.0f) == 0x7C00);
  CHECK(encode(DataType::f16, -65520.0f) == 0xFC00);
  CHECK(encode(DataType::f16, 1e30f) == 0x7C00);
  CHECK(encode(DataType::f16, -INFINITY) == 0xFC00);
  // Below half the smallest subnormal (2^-25), float subnormals included: a signed zero.
  CHECK(encode(DataType::f16, std::ldexp(1.0f, -26)) == 0x0000);
  CHECK(encode(DataType::f16, -std::ldexp(1.0f, -140)) == 0x8000);
  CHECK(encode(DataType::f16, std::nextafter(std::ldexp(1.0f, -25), 1.0f)) == 0x0001);
  for (const DataType t : {DataType::bf16, DataType::f16, DataType::f8e4m3, DataType::f8e5m2})
    for (const float nan : {NAN, -NAN}) CHECK(std::isnan(decode(t, encode(t, nan))));
  // bf16 past its largest finite value rounds to infinity, as float does; NaN stays NaN.
  CHECK(encode(DataType::bf16, 3.4028235e38f) == 0x7F80);
  CHECK(encode(DataType::bf16, -3.4028235e38f) == 0xFF80);
  CHECK(encode(DataType::bf16, 3.3895314e38f) == 0x7F7F);  // the largest finite bf16
  CHECK(std::isnan(decode(DataType::bf16, encode(DataType::bf16, NAN))));
  CHECK(encode(DataType::bf16, std::ldexp(1.0f, -133)) == 0x0001);  // the smallest subnormal
  CHECK(encode(DataType::bf16, std::ldexp(1.0f, -134)) == 0x0000);  // half of it: ties to even
}

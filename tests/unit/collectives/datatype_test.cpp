#include <cmath>

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
    for (int v = 1; v <= 8; ++v)
      CHECK(decode(t, encode(t, static_cast<float>(v))) == static_cast<float>(v));
  }
  CHECK(std::isnan(decode(DataType::f8e4m3, 0x7F)));
  CHECK(std::isinf(decode(DataType::f16, 0x7C00)));
}

TEST_CASE("arrays round-trip through raw bytes") {
  const std::vector<double> values{1, 2, 3.5, -4};
  for (DataType t : all_datatypes()) {
    std::vector<std::byte> raw(values.size() * type_size(t));
    encode_array(t, values, raw);
    CHECK(decode_array(t, raw) == values);
  }
}

TEST_CASE("datatype names are nccl-tests' and perfgate's") {
  CHECK(datatype_from_string("bf16") == DataType::bf16);
  CHECK(datatype_from_string("half") == DataType::f16);
  CHECK(datatype_from_string("fp8") == DataType::f8e4m3);
  CHECK(type_name(DataType::f32) == "float");
  CHECK_THROWS_AS(datatype_from_string("int128"), perfgate::InputError);
}

TEST_CASE("series spell datatypes as the operator benchmarks do, and that spelling reads back") {
  CHECK(series_dtype(DataType::f32) == "f32");
  CHECK(series_dtype(DataType::bf16) == "bf16");
  CHECK(series_dtype(DataType::f16) == "f16");
  for (DataType t : all_datatypes()) CHECK(datatype_from_string(series_dtype(t)) == t);
}

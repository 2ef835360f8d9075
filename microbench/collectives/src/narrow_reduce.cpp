#include "perfgate/collectives/narrow_reduce.hpp"

#include <bit>
#include <cstdint>
#include <cstring>

#include "narrow_codec.hpp"

namespace perfgate::collectives {
namespace {

// One loop per (code type, op, conversion pair): the compiler sees constant sizes, a constant
// op and inline conversions, where a call per element through encode() and decode() re-read
// the type and took two calls and a table's initialisation guard.
template <class Code, ReduceOp Op, class Decode, class Encode>
void reduce_loop(const std::byte* in, std::byte* inout, std::size_t count, Decode decode,
                 Encode encode) {
  for (std::size_t i = 0; i < count; ++i) {
    Code a = 0, b = 0;
    std::memcpy(&a, in + i * sizeof(Code), sizeof(Code));
    std::memcpy(&b, inout + i * sizeof(Code), sizeof(Code));
    const double value = combine(Op, decode(a), decode(b));
    const auto code = static_cast<Code>(encode(static_cast<float>(value)));
    std::memcpy(inout + i * sizeof(Code), &code, sizeof(Code));
  }
}

template <ReduceOp Op>
void reduce_as(DataType t, const std::byte* in, std::byte* inout, std::size_t count) {
  switch (t) {
    case DataType::f32:
      return reduce_loop<std::uint32_t, Op>(
          in, inout, count, [](std::uint32_t c) { return std::bit_cast<float>(c); },
          [](float v) { return std::bit_cast<std::uint32_t>(v); });
    case DataType::bf16:
      return reduce_loop<std::uint16_t, Op>(in, inout, count, codec::decode_bf16,
                                            codec::encode_bf16);
    case DataType::f16: {
      const float* table = codec::decode_table(t).data();
      return reduce_loop<std::uint16_t, Op>(
          in, inout, count, [table](std::uint16_t c) { return table[c]; }, codec::encode_f16);
    }
    case DataType::f8e4m3:
    case DataType::f8e5m2: {
      const float* table = codec::decode_table(t).data();
      const std::uint8_t* encoding = codec::fp8_encode_table(t).data();
      return reduce_loop<std::uint8_t, Op>(
          in, inout, count, [table](std::uint8_t c) { return table[c]; },
          [encoding](float v) { return encoding[codec::fp8_table_index(v)]; });
    }
  }
}

}  // namespace

void reduce_encoded(DataType t, ReduceOp op, const std::byte* in, std::byte* inout,
                    std::size_t count) {
  switch (op) {
    case ReduceOp::sum:
    case ReduceOp::avg:
      return reduce_as<ReduceOp::sum>(t, in, inout, count);
    case ReduceOp::prod:
      return reduce_as<ReduceOp::prod>(t, in, inout, count);
    case ReduceOp::max:
      return reduce_as<ReduceOp::max>(t, in, inout, count);
    case ReduceOp::min:
      return reduce_as<ReduceOp::min>(t, in, inout, count);
  }
}

}  // namespace perfgate::collectives

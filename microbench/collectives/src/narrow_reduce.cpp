#include "perfgate/collectives/narrow_reduce.hpp"

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
  codec::with_codec(t, [&](auto code, auto decode, auto encode) {
    reduce_loop<decltype(code), Op>(in, inout, count, decode, encode);
  });
}

}  // namespace

void reduce_encoded(DataType t, ReduceOp op, const std::byte* in, std::byte* inout,
                    std::size_t count) {
  switch (op) {
    case ReduceOp::sum:
    case ReduceOp::avg:
    case ReduceOp::mulsum:
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

// The MPI backend's narrow-type reduction against the element-at-a-time definition it must
// reproduce bit for bit: decode both codes, combine, encode.
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <random>
#include <vector>

#include <catch2/catch.hpp>

#include "perfgate/collectives/datatype.hpp"
#include "perfgate/collectives/narrow_reduce.hpp"
#include "perfgate/collectives/reduce_op.hpp"

using namespace perfgate::collectives;

namespace {

std::uint32_t code_at(const std::vector<std::byte>& buffer, std::size_t i, std::size_t size) {
  std::uint32_t code = 0;
  std::memcpy(&code, buffer.data() + i * size, size);  // little-endian: the low bytes
  return code;
}

// Pairs of codes: for fp8 every pair; for 16-bit types every special or boundary code against
// every other one of them, then random pairs.
std::vector<std::pair<std::uint32_t, std::uint32_t>> code_pairs(DataType t) {
  std::vector<std::pair<std::uint32_t, std::uint32_t>> pairs;
  if (type_size(t) == 1) {
    for (std::uint32_t a = 0; a < 256; ++a)
      for (std::uint32_t b = 0; b < 256; ++b) pairs.emplace_back(a, b);
    return pairs;
  }
  const std::vector<std::uint32_t> edges{0x0000, 0x8000, 0x0001, 0x8001, 0x03FF, 0x0400,
                                         0x007F, 0x0080, 0x3C00, 0x3F80, 0x7BFF, 0x7C00,
                                         0x7F7F, 0x7F80, 0xFF80, 0x7FC0, 0x7E00, 0xFFFF};
  for (std::uint32_t a : edges)
    for (std::uint32_t b : edges) pairs.emplace_back(a, b);
  std::mt19937 rng(7);
  std::uniform_int_distribution<std::uint32_t> code(0, 0xFFFF);
  for (int i = 0; i < 200000; ++i) pairs.emplace_back(code(rng), code(rng));
  return pairs;
}

}  // namespace

TEST_CASE("a narrow reduction is the element-wise decode, combine and encode") {
  // f32 and the narrow floats: the types reduce_encoded serves (MPI reduces the others itself).
  for (const DataType t :
       {DataType::f32, DataType::bf16, DataType::f16, DataType::f8e4m3, DataType::f8e5m2}) {
    const std::size_t size = type_size(t);
    const auto pairs =
        size == 4 ? std::vector<std::pair<std::uint32_t, std::uint32_t>>{{0x3F800000, 0x40000000},
                                                                         {0x7FC00000, 0xBF800000}}
                  : code_pairs(t);
    for (const ReduceOp op : all_reduce_ops()) {
      CAPTURE(type_name(t), op_name(op));
      // One byte of offset: MPI hands the function buffers at any alignment.
      std::vector<std::byte> in(pairs.size() * size + 1), inout(pairs.size() * size + 1);
      for (std::size_t i = 0; i < pairs.size(); ++i) {
        std::memcpy(in.data() + 1 + i * size, &pairs[i].first, size);
        std::memcpy(inout.data() + 1 + i * size, &pairs[i].second, size);
      }
      reduce_encoded(t, op, in.data() + 1, inout.data() + 1, pairs.size());
      const std::vector<std::byte> result(inout.begin() + 1, inout.end());
      std::size_t wrong = 0;
      for (std::size_t i = 0; i < pairs.size(); ++i) {
        const auto [a, b] = pairs[i];
        const double value = combine(op, decode(t, a), decode(t, b));
        const std::uint32_t expected = encode(t, static_cast<float>(value));
        if (code_at(result, i, size) != expected && ++wrong <= 3)
          FAIL_CHECK("codes " << a << " and " << b << " gave " << code_at(result, i, size)
                              << ", expected " << expected);
      }
      CHECK(wrong == 0);
    }
  }
}

TEST_CASE("a narrow reduction writes only its count of elements") {
  std::vector<std::byte> in(8, std::byte{0x3F}), inout(8, std::byte{0x3F});
  reduce_encoded(DataType::bf16, ReduceOp::sum, in.data(), inout.data(), 3);
  // 0x3F3F is about 0.75; the sum is 1.49 = 0x3FBF in bf16, the untouched tail stays 0x3F3F.
  CHECK(code_at(inout, 0, 2) == 0x3FBF);
  CHECK(code_at(inout, 2, 2) == 0x3FBF);
  CHECK(code_at(inout, 3, 2) == 0x3F3F);
  reduce_encoded(DataType::f16, ReduceOp::sum, in.data(), inout.data(), 0);
  CHECK(code_at(inout, 0, 2) == 0x3FBF);
}

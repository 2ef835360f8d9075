// The CPU step proxy refuses a model its node cannot hold before allocating it; these pin the
// byte count it judges (node_memory_test the reading of the node's available memory).
#include <catch2/catch.hpp>

#include "host_memory.hpp"

using perfgate::step_proxy::host_model_bytes;
using perfgate::step_proxy::Shape;

TEST_CASE("the CPU model's buffers, counted by hand for a small shape") {
  Shape s;  // 2 layers, hidden 64, 4 heads, seq 32, batch 2: 64 tokens
  // fp32 elements: W and dW 2·2·12·64² = 196608; activations 2·(11·64·64 + 2·4·32) = 90624;
  // backward scratch 11·4096 = 45056; the ceiling GEMM 5·4096 + 4·64² = 36864.
  CHECK(host_model_bytes(s) == (196608.0 + 90624 + 45056 + 36864) * 4);
}

TEST_CASE("the count is what TransformerStack allocates, plus the ceiling GEMM's operands") {
  // measure_ceiling's [t, h] x [h, 4h] GEMM: A, B and C in fp32.
  const auto ceiling = [](const Shape& s) {
    const double t = double(s.batch) * s.seq, h = s.hidden;
    return (t * h + 4 * h * h + 4 * t * h) * 4;
  };
  for (const Shape& s :
       {Shape{}, Shape{.layers = 3, .hidden = 96, .heads = 6, .seq = 20, .batch = 3}}) {
    const perfgate::step_proxy::TransformerStack stack(s);
    CHECK(host_model_bytes(s) == double(stack.allocated_bytes()) + ceiling(s));
  }
}

TEST_CASE("a shape past 64-bit products is still counted, not wrapped") {
  const Shape s{.layers = 2147483647, .hidden = 2147483647, .heads = 1, .seq = 1, .batch = 1};
  CHECK(host_model_bytes(s) > 9e29);  // 24 · 2^93 parameters, 4 bytes each
}

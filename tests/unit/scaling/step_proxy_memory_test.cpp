// The CUDA step proxy refuses a model whose buffers do not fit a GPU before NCCL starts; these
// pin the byte count it compares with the free memory.
#include <catch2/catch.hpp>

#include "cuda/model_memory.hpp"

using perfgate::step_proxy::Shape;
using perfgate::step_proxy::gpu::model_buffer_bytes;

TEST_CASE("the model's buffers, counted by hand for a small shape") {
  Shape s;  // 2 layers, hidden 64, 4 heads, seq 32, batch 2: 64 tokens
  // bf16 elements: W and dW 2·2·12·64² = 196608; inputs 3·64·64 = 12288; activations
  // 2·13·4096 = 106496; scratch 12·4096 = 49152; fp32 statistics 2·2·4·32 floats.
  CHECK(model_buffer_bytes(s) == (196608 + 12288 + 106496 + 49152) * 2 + 2 * 2 * 4 * 32 * 4);
}

TEST_CASE("the nightly strong sweep's 1-node point fits an 80 GB GPU at 8 sequences per rank") {
  Shape s{.layers = 24, .hidden = 4096, .heads = 32, .seq = 2048, .batch = 8};  // global 64 / 8
  const double gib = double(1u << 30);
  CHECK(double(model_buffer_bytes(s)) / gib == Approx(61.7).margin(0.1));
  s.batch = 64;  // the former global 512 over 8 ranks
  CHECK(double(model_buffer_bytes(s)) / gib == Approx(367.4).margin(0.1));
}

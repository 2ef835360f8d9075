#pragma once
// Device bytes of the CUDA step proxy's model buffers: what GpuTransformer allocates (weights,
// gradients, every layer's activations, backward scratch), before cuBLASLt's, cuDNN's and
// NCCL's own. Host arithmetic only, so it is tested without a GPU; GpuTransformer's constructor
// checks it against what it allocated.
#include <cstddef>
#include <cstdint>

#include "../transformer.hpp"

namespace perfgate::step_proxy::gpu {

inline std::size_t model_buffer_bytes(const Shape& s) {
  const auto layers = std::size_t(s.layers), t = std::size_t(s.tokens()), h = std::size_t(s.hidden);
  const std::size_t parameters = 2 * layers * std::size_t(s.params_per_layer());  // W and dW
  const std::size_t inputs = (layers + 1) * t * h;  // each layer's input and the output
  const std::size_t activations = layers * (5 + 4 + 4) * t * h;  // q, k, v, attn, y1; pre; h
  const std::size_t scratch = (8 + 4) * t * h;                   // t×h gradients; the MLP's
  const std::size_t stats =  // fp32 softmax statistics per layer, row and head
      layers * std::size_t(s.batch) * std::size_t(s.heads) * std::size_t(s.seq) * sizeof(float);
  return (parameters + inputs + activations + scratch) * sizeof(std::uint16_t) + stats;  // bf16
}

}  // namespace perfgate::step_proxy::gpu

#pragma once
// The few elementwise kernels the GPU step needs beyond GEMMs and attention: GeLU forward and
// backward on bf16 activations, a seeded bf16 initialiser, a busy-wait (the straggler delay), the
// gradient check's sum of magnitudes and its exact pass's pattern.
#include <cuda_runtime.h>

#include <cstddef>
#include <cstdint>

namespace perfgate::step_proxy::gpu {

using Bf16Bits = std::uint16_t;  // bf16 storage on the host side of the interface

// out = gelu_tanh(pre); `pre` is kept for the backward pass.
void gelu_forward(const Bf16Bits* pre, Bf16Bits* out, std::size_t count, cudaStream_t s);
// grad *= gelu_tanh'(pre), in place.
void gelu_backward(const Bf16Bits* pre, Bf16Bits* grad, std::size_t count, cudaStream_t s);
// Values in ±[0.25, 1) × scale from a hash of (seed, index): never zeros, reproducible.
void fill_uniform(Bf16Bits* data, std::size_t count, float scale, std::uint64_t seed,
                  cudaStream_t s);
// Σ|data| in double, as kSumAbsBlocks partial sums written to `partials` (add them on the host):
// a fixed split, so the same data always gives the same sum.
inline constexpr int kSumAbsBlocks = 120;
void sum_abs_partials(const Bf16Bits* data, std::size_t count, double* partials, cudaStream_t s);
// The exact pass (gradient_check.hpp): `data` set to rank `rank`'s pattern; and the elements
// [first, first + count) unlike their exact sum, added to *wrong (device memory).
void exact_pass_fill(Bf16Bits* data, std::size_t count, int ranks, int rank, cudaStream_t s);
void exact_pass_count_wrong(const Bf16Bits* data, std::size_t first, std::size_t count, int ranks,
                            unsigned long long* wrong, cudaStream_t s);
// Occupies the stream for `microseconds` of GPU time (the --delay-us straggler).
void spin(double microseconds, cudaStream_t s);

}  // namespace perfgate::step_proxy::gpu

// The two row kernels of the unfused attention backward: one block per row, fp32 throughout.
#include <cuda_bf16.h>

#include <cfloat>

#include "perfgate/cuda/check.hpp"
#include "unfused_attention_backward.hpp"

namespace perfgate::step_proxy::gpu {
namespace {

constexpr int kThreads = 256;  // a multiple of the warp size; block_reduce relies on it

struct Sum {
  __device__ float operator()(float a, float b) const { return a + b; }
};
struct Max {
  __device__ float operator()(float a, float b) const { return fmaxf(a, b); }
};

// Every thread of the block gets op over all threads' values.
template <class Op>
__device__ float block_reduce(float value, Op op) {
  __shared__ float partial[kThreads / 32];
  for (int offset = 16; offset > 0; offset /= 2)
    value = op(value, __shfl_xor_sync(0xffffffffu, value, offset));
  const int warp = threadIdx.x / 32, lane = threadIdx.x % 32;
  if (lane == 0) partial[warp] = value;
  __syncthreads();
  value = partial[0];
  for (int w = 1; w < kThreads / 32; ++w) value = op(value, partial[w]);
  __syncthreads();  // partial[] may be reused by the next reduction
  return value;
}

__global__ void softmax_rows_kernel(const float* scores, __nv_bfloat16* probs, std::int64_t cols) {
  const float* in = scores + blockIdx.x * cols;
  __nv_bfloat16* out = probs + blockIdx.x * cols;
  float row_max = -FLT_MAX;
  for (std::int64_t j = threadIdx.x; j < cols; j += kThreads) row_max = fmaxf(row_max, in[j]);
  row_max = block_reduce(row_max, Max{});
  float sum = 0.0f;
  for (std::int64_t j = threadIdx.x; j < cols; j += kThreads) sum += __expf(in[j] - row_max);
  const float inv_sum = 1.0f / block_reduce(sum, Sum{});
  for (std::int64_t j = threadIdx.x; j < cols; j += kThreads)
    out[j] = __float2bfloat16(__expf(in[j] - row_max) * inv_sum);
}

__global__ void softmax_backward_rows_kernel(__nv_bfloat16* probs_to_d_scores, const float* d_probs,
                                             const __nv_bfloat16* o, const __nv_bfloat16* d_o,
                                             std::int64_t heads, std::int64_t seq_q,
                                             std::int64_t seq_kv, std::int64_t head_dim) {
  const std::int64_t row = blockIdx.x, h = row / seq_q, i = row % seq_q;
  const std::int64_t at = (i * heads + h) * head_dim;
  float delta = 0.0f;
  for (std::int64_t d = threadIdx.x; d < head_dim; d += kThreads)
    delta += __bfloat162float(o[at + d]) * __bfloat162float(d_o[at + d]);
  delta = block_reduce(delta, Sum{});
  __nv_bfloat16* p = probs_to_d_scores + row * seq_kv;
  const float* dp = d_probs + row * seq_kv;
  for (std::int64_t j = threadIdx.x; j < seq_kv; j += kThreads)
    p[j] = __float2bfloat16(__bfloat162float(p[j]) * (dp[j] - delta));
}

}  // namespace

void softmax_rows(const float* scores, Bf16Bits* probs, std::int64_t rows, std::int64_t cols,
                  cudaStream_t s) {
  softmax_rows_kernel<<<static_cast<unsigned>(rows), kThreads, 0, s>>>(
      scores, reinterpret_cast<__nv_bfloat16*>(probs), cols);
  PERFGATE_CHECK_LAUNCH("softmax_rows_kernel");
}

void softmax_backward_rows(Bf16Bits* probs_to_d_scores, const float* d_probs, const Bf16Bits* o,
                           const Bf16Bits* d_o, std::int64_t heads, std::int64_t seq_q,
                           std::int64_t seq_kv, std::int64_t head_dim, cudaStream_t s) {
  softmax_backward_rows_kernel<<<static_cast<unsigned>(heads * seq_q), kThreads, 0, s>>>(
      reinterpret_cast<__nv_bfloat16*>(probs_to_d_scores), d_probs,
      reinterpret_cast<const __nv_bfloat16*>(o), reinterpret_cast<const __nv_bfloat16*>(d_o), heads,
      seq_q, seq_kv, head_dim);
  PERFGATE_CHECK_LAUNCH("softmax_backward_rows_kernel");
}

}  // namespace perfgate::step_proxy::gpu

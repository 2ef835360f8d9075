// Cross-entropy per row of fp32 logits: the fused form sweeps each row once with an online
// max/sum; the unfused baseline writes the whole log-softmax matrix, then gathers the labels'
// terms (log_softmax + nll_loss as two framework ops).
#include <string>

#include "perfgate/cuda/check.hpp"
#include "perfgate/cuda/fused_ops.hpp"
#include "vec.cuh"

namespace perfgate::cuda {
namespace kernels {
namespace {

constexpr int kRowThreads = 512;

// Every thread of the block gets the row's max and log-sum-exp.
struct RowStats {
  float max, lse;
};
__device__ __forceinline__ RowStats row_stats(const float* x, std::int64_t vocab) {
  float m = -INFINITY, s = 0;
  for (std::int64_t j = threadIdx.x; j < vocab; j += blockDim.x) {
    const float v = x[j];
    if (v > m) {
      s = s * expf(m - v) + 1.0f;
      m = v;
    } else if (v != -INFINITY) {  // −inf adds nothing; expf(−inf − (−inf)) would be NaN
      s += expf(v - m);
    }
  }
  const float row_max = block_reduce<true>(m);
  // A thread that saw only −inf has s == 0 (and m − row_max may be NaN); a NaN logit stays NaN.
  const float sum = block_reduce<false>(s == 0.0f ? 0.0f : s * expf(m - row_max));
  return {row_max, row_max + logf(sum)};
}

// lse − x[label]; NaN for a label outside [0, vocab) instead of a read outside the row.
__device__ __forceinline__ float label_loss(float lse, const float* x, std::int64_t label,
                                            std::int64_t vocab) {
  return label >= 0 && label < vocab ? lse - x[label] : __int_as_float(0x7fc00000);
}

__global__ void __launch_bounds__(kRowThreads)
    cross_entropy_kernel(const float* logits, const std::int64_t* labels, float* loss,
                         std::int64_t vocab) {
  const float* x = logits + blockIdx.x * vocab;
  const RowStats r = row_stats(x, vocab);
  if (threadIdx.x == 0) loss[blockIdx.x] = label_loss(r.lse, x, labels[blockIdx.x], vocab);
}

__global__ void __launch_bounds__(kRowThreads)
    log_softmax_kernel(const float* logits, float* logp, std::int64_t vocab) {
  const float* x = logits + blockIdx.x * vocab;
  float* y = logp + blockIdx.x * vocab;
  const RowStats r = row_stats(x, vocab);
  for (std::int64_t j = threadIdx.x; j < vocab; j += blockDim.x) y[j] = x[j] - r.lse;
}

__global__ void nll_gather_kernel(const float* logp, const std::int64_t* labels, float* loss,
                                  std::int64_t rows, std::int64_t vocab) {
  const std::int64_t r = blockIdx.x * std::int64_t(blockDim.x) + threadIdx.x;
  if (r < rows) loss[r] = label_loss(0.0f, logp + r * vocab, labels[r], vocab);
}

void validate(std::int64_t rows, std::int64_t vocab) {
  if (rows <= 0 || rows > 0x7fffffff || vocab <= 0)
    throw InputError("cuda cross_entropy: rows (" + std::to_string(rows) + ") and vocab (" +
                     std::to_string(vocab) + ") must be positive, rows below 2^31");
}

}  // namespace
}  // namespace kernels

void cross_entropy_fused(const float* logits, const std::int64_t* labels, float* loss,
                         std::int64_t rows, std::int64_t vocab, cudaStream_t s) {
  kernels::validate(rows, vocab);
  kernels::cross_entropy_kernel<<<unsigned(rows), kernels::kRowThreads, 0, s>>>(logits, labels,
                                                                                loss, vocab);
  PERFGATE_CHECK_LAUNCH("cross_entropy_kernel");
}

void cross_entropy_unfused(const float* logits, const std::int64_t* labels, float* logp,
                           float* loss, std::int64_t rows, std::int64_t vocab, cudaStream_t s) {
  kernels::validate(rows, vocab);
  kernels::log_softmax_kernel<<<unsigned(rows), kernels::kRowThreads, 0, s>>>(logits, logp, vocab);
  PERFGATE_CHECK_LAUNCH("log_softmax_kernel");
  kernels::nll_gather_kernel<<<unsigned((rows + 255) / 256), 256, 0, s>>>(logp, labels, loss, rows,
                                                                          vocab);
  PERFGATE_CHECK_LAUNCH("nll_gather_kernel");
}

}  // namespace perfgate::cuda

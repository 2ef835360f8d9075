#pragma once
// Launchers of the fused memory-bound operators and of their unfused baselines (separate
// elementwise/reduction kernels, each reading and writing device memory). Pointers are device
// pointers of the given precision (f32, bf16 or f16); every launch is checked. Inputs are read
// through the read-only data cache, so an input must not overlap an output of the same call
// unless the launcher says so (bias+GeLU may run in place).
#include <cuda_runtime.h>

#include <cstdint>
#include <vector>

#include "perfgate/cuda/traffic_model.hpp"

namespace perfgate::cuda {

// Row operators need hidden divisible by the 128-bit vector width and at most 4096 vectors
// per row (1024 threads x 4 vectors held in registers: 32768 bf16/f16, 16384 f32); throws
// InputError otherwise.
void validate_row_shape(RowShape s, Precision p);

// h = x + residual; y = h / rms(h) * weight.
struct NormArgs {
  const void* x;
  const void* residual;
  const void* weight;
  const void* bias;  // layernorm only
  void* residual_out;
  void* y;
  RowShape shape;
  float eps;
};
// How a fused norm spreads a row over its block. fewest_threads: 4 vectors per thread (hidden
// 8192 bf16: 256 threads, 57 registers on sm_90a, 4 blocks per SM). most_threads: 1 vector per
// thread where the row has at most 1024 (32 registers: 2048 threads per SM), else as
// fewest_threads. Both are timed side by side in the device check until a GPU run shows which
// to keep.
enum class RowBlock { fewest_threads, most_threads };
void rmsnorm_residual_fused(Precision p, const NormArgs& a, cudaStream_t s,
                            RowBlock block = RowBlock::fewest_threads);
void rmsnorm_residual_unfused(Precision p, const NormArgs& a, cudaStream_t s);
void layernorm_residual_fused(Precision p, const NormArgs& a, cudaStream_t s,
                              RowBlock block = RowBlock::fewest_threads);
void layernorm_residual_unfused(Precision p, const NormArgs& a, cudaStream_t s);

// Row softmax. The unfused form needs 2*rows floats of scratch.
void softmax_fused(Precision p, const void* x, void* y, RowShape shape, cudaStream_t s);
void softmax_unfused(Precision p, const void* x, void* y, float* scratch, RowShape shape,
                     cudaStream_t s);
// Softmax of fp32 scores with a causal mask (row i keeps columns <= i + cols - rows), bf16/f16 out.
void masked_softmax_f32_in(Precision out, const float* x, void* y, RowShape shape,
                           std::int64_t matrices, bool causal, float scale, cudaStream_t s);

// y = gelu_tanh(x + bias[col]); x may be y (in place, e.g. a GEMM's output).
void bias_gelu_fused(Precision p, const void* x, const void* bias, void* y, RowShape shape,
                     cudaStream_t s);
void bias_gelu_unfused(Precision p, const void* x, const void* bias, void* y, RowShape shape,
                       cudaStream_t s);

// gate_up is [rows, 2*hidden] (gate first); y[rows, hidden] = silu(gate) * up.
void swiglu_fused(Precision p, const void* gate_up, void* y, RowShape shape, cudaStream_t s);
void swiglu_unfused(Precision p, const void* gate_up, void* y, RowShape shape, cudaStream_t s);

// Rotary embedding on x[tokens, heads, head_dim], rotate-half form (the CPU family's and
// Llama's): element i < head_dim/2 pairs with i + head_dim/2, both rotated by
// pos * theta^(-2i/head_dim). `table` is the precomputed cos/sin [positions, head_dim/2] (float2);
// token t sits at position t mod positions. head_dim/2 must be a multiple of the vector width.
void rope_table(float* table, std::int64_t positions, std::int64_t head_dim, float theta,
                cudaStream_t s);
void rope_fused(Precision p, const void* x, const float* table, std::int64_t positions, void* y,
                std::int64_t tokens, std::int64_t heads, std::int64_t head_dim, cudaStream_t s);
void rope_unfused(Precision p, const void* x, const float* table, std::int64_t positions,
                  void* scratch, void* y, std::int64_t tokens, std::int64_t heads,
                  std::int64_t head_dim, cudaStream_t s);

// AdamW over a list of fp32 tensors (decoupled weight decay, bias-corrected moments). The
// multi-tensor kernel uses float4 accesses where a tensor's four arrays are 16-byte aligned and
// scalar ones elsewhere (a tensor that is a view at an odd offset into a flat buffer).
struct AdamWHyper {
  float lr = 1e-3f, beta1 = 0.9f, beta2 = 0.999f, eps = 1e-8f, weight_decay = 0.01f;
  int step = 1;
};
struct TensorList {
  std::vector<float*> params, grads, m, v;
  std::vector<std::int64_t> sizes;
};
class AdamWMultiTensor {
 public:
  explicit AdamWMultiTensor(const TensorList& list);  // uploads the chunk table once
  ~AdamWMultiTensor();
  AdamWMultiTensor(const AdamWMultiTensor&) = delete;
  AdamWMultiTensor& operator=(const AdamWMultiTensor&) = delete;
  void launch(const AdamWHyper& h, cudaStream_t s) const;

 private:
  void* table_ = nullptr;  // device chunk descriptors
  int chunks_ = 0;
};
void adamw_unfused(const TensorList& list, const AdamWHyper& h, cudaStream_t s);
// The kernels' step in double precision on the host, one element at a time: the reference of
// the CUDA checks. It gives the update p' - p rather than p', for a check to compare with the
// update's own size (against |p|, a wrong weight-decay term would hide under p's rounding).
class AdamWReference {
 public:
  explicit AdamWReference(const AdamWHyper& h);  // throws InputError when h.step < 1
  struct Element {
    double update, m, v;  // p' - p, m', v'
  };
  Element operator()(float p, float g, float m, float v) const;

 private:
  double lr_, beta1_, beta2_, eps_, decay_, correction1_, correction2_;
};

// Cross-entropy per row: loss[r] = logsumexp(logits[r]) − logits[r][labels[r]], fp32 logits
// [rows, vocab] (any vocab), int64 labels. The unfused form writes log-softmax into `logp`
// ([rows, vocab] floats), then gathers. A label outside [0, vocab) gives a NaN loss for its row
// (there is no ignore_index, as in the CPU family); −inf logits contribute nothing.
void cross_entropy_fused(const float* logits, const std::int64_t* labels, float* loss,
                         std::int64_t rows, std::int64_t vocab, cudaStream_t s);
void cross_entropy_unfused(const float* logits, const std::int64_t* labels, float* logp,
                           float* loss, std::int64_t rows, std::int64_t vocab, cudaStream_t s);

// A plain vectorised copy kernel (the copy ceiling's second opinion next to cudaMemcpy).
void copy_kernel(const void* src, void* dst, std::size_t bytes, cudaStream_t s);

}  // namespace perfgate::cuda

namespace perfgate::cuda {
// Fills `count` elements with a seeded pseudo-random pattern in ±[0.25, 1) on the device (large
// timing inputs; the correctness checks upload host values instead).
void fill_random(Precision p, void* data, std::size_t count, std::uint64_t seed, cudaStream_t s);
// Copies row rows[r] of `src` to row r of `dst` for r < count, rows of `row_bytes` bytes;
// `rows` is a device array. Gathers the parts of a large tensor a host check reads into one
// compact buffer, for one copy instead of one per part.
void gather_rows(const void* src, std::size_t row_bytes, const std::int64_t* rows,
                 std::size_t count, void* dst, cudaStream_t s);
}  // namespace perfgate::cuda

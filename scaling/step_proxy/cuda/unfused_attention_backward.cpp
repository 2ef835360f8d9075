#include "unfused_attention_backward.hpp"

#include <cmath>

#include "perfgate/core/error.hpp"
#include "perfgate/cuda/check.hpp"

namespace perfgate::step_proxy::gpu {
namespace {

// One row-major operand of a head-batched GEMM: leading dimension and head-to-head stride.
struct Operand {
  const void* data;
  cudaDataType_t type;
  std::int64_t ld, stride;
};

// Row-major C[m,n] = alpha·op(A)·op(B) per head, as lt_matmul.cpp maps it: cuBLAS computes the
// column-major Cᵀ = op(B)ᵀ·op(A)ᵀ, and a row-major [r,c] buffer is a column-major [c,r] one.
void gemm(cublasHandle_t handle, bool trans_a, bool trans_b, std::int64_t m, std::int64_t n,
          std::int64_t k, float alpha, Operand a, Operand b, Operand c, std::int64_t heads) {
  const float beta = 0.0f;
  PERFGATE_CUBLAS_CHECK(cublasGemmStridedBatchedEx(
      handle, trans_b ? CUBLAS_OP_T : CUBLAS_OP_N, trans_a ? CUBLAS_OP_T : CUBLAS_OP_N, int(n),
      int(m), int(k), &alpha, b.data, b.type, int(b.ld), b.stride, a.data, a.type, int(a.ld),
      a.stride, &beta, const_cast<void*>(c.data), c.type, int(c.ld), c.stride, int(heads),
      CUBLAS_COMPUTE_32F, CUBLAS_GEMM_DEFAULT));
}

// Checked before the scratch is allocated.
const cuda::AttentionShape& supported(const cuda::AttentionShape& s) {
  if (s.causal || s.kv_heads != s.heads)
    throw InputError(
        "unfused attention backward: only non-causal attention with as many K/V heads as query "
        "heads");
  return s;
}

}  // namespace

UnfusedAttentionBackward::UnfusedAttentionBackward(const cuda::AttentionShape& s)
    : shape_(supported(s)),
      scores_(static_cast<std::size_t>(s.heads * s.seq_q * s.seq_kv)),
      probs_(scores_.size()) {
  PERFGATE_CUBLAS_CHECK(cublasCreate(&handle_));
}

UnfusedAttentionBackward::~UnfusedAttentionBackward() {
  if (handle_ != nullptr) cublasDestroy(handle_);
}

void UnfusedAttentionBackward::run(const Bf16Bits* q, const Bf16Bits* k, const Bf16Bits* v,
                                   const Bf16Bits* o, const Bf16Bits* d_o, Bf16Bits* dq,
                                   Bf16Bits* dk, Bf16Bits* dv, cudaStream_t stream) {
  const cuda::AttentionShape& s = shape_;
  const float scale = float(1.0 / std::sqrt(double(s.head_dim)));
  const std::int64_t ld = s.heads * s.head_dim;  // [B, S, H, D]: one head is a strided S×D matrix
  const std::int64_t sq = s.seq_q, skv = s.seq_kv, d = s.head_dim;
  PERFGATE_CUBLAS_CHECK(cublasSetStream(handle_, stream));
  // The scratch holds one batch, so the batches run one after another on the stream.
  for (std::int64_t b = 0; b < s.batch; ++b) {
    const std::size_t q_at = static_cast<std::size_t>(b * sq * ld);
    const std::size_t kv_at = static_cast<std::size_t>(b * skv * ld);
    auto q_like = [&](const Bf16Bits* p) { return Operand{p + q_at, CUDA_R_16BF, ld, d}; };
    auto kv_like = [&](const Bf16Bits* p) { return Operand{p + kv_at, CUDA_R_16BF, ld, d}; };
    const Operand scores{scores_.get(), CUDA_R_32F, skv, sq * skv};
    const Operand probs{probs_.get(), CUDA_R_16BF, skv, sq * skv};
    gemm(handle_, false, true, sq, skv, d, scale, q_like(q), kv_like(k), scores, s.heads);
    softmax_rows(scores_.get(), probs_.get(), s.heads * sq, skv, stream);
    gemm(handle_, true, false, skv, d, sq, 1.0f, probs, q_like(d_o), kv_like(dv), s.heads);
    gemm(handle_, false, true, sq, skv, d, 1.0f, q_like(d_o), kv_like(v), scores, s.heads);
    softmax_backward_rows(probs_.get(), scores_.get(), o + q_at, d_o + q_at, s.heads, sq, skv, d,
                          stream);
    gemm(handle_, false, false, sq, d, skv, scale, probs, kv_like(k), q_like(dq), s.heads);
    gemm(handle_, true, false, skv, d, sq, scale, probs, q_like(q), kv_like(dk), s.heads);
  }
}

}  // namespace perfgate::step_proxy::gpu

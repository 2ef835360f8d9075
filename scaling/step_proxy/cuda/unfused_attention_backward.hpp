#pragma once
// Attention backward without cuDNN, for a cuDNN whose SDPA_BWD operation is refused: per batch,
// cuBLAS strided-batched GEMMs over the heads (bf16 in, fp32 accumulation) and two row kernels.
// Same layout as the cuDNN SDPA the proxy uses: Q, K, V, O, dO, dQ, dK, dV all [B, S, H, D]
// bf16 with as many K/V heads as query heads, softmax scale 1/sqrt(D), no mask.
//   S = scale·Q·Kᵀ → P = softmax(S) → dV = Pᵀ·dO, dP = dO·Vᵀ → dS = P ∘ (dP − rowsum(dO ∘ O))
//   → dQ = scale·dS·K, dK = scale·dSᵀ·Q
#include <cublas_v2.h>
#include <cuda_runtime.h>

#include <cstdint>

#include "gpu_kernels.hpp"
#include "perfgate/cuda/device_buffer.hpp"
#include "perfgate/cuda/traffic_model.hpp"

namespace perfgate::step_proxy::gpu {

class UnfusedAttentionBackward {
 public:
  // Throws InputError for a causal or grouped-query shape (the proxy has neither).
  explicit UnfusedAttentionBackward(const cuda::AttentionShape& s);
  ~UnfusedAttentionBackward();
  UnfusedAttentionBackward(const UnfusedAttentionBackward&) = delete;
  UnfusedAttentionBackward& operator=(const UnfusedAttentionBackward&) = delete;
  void run(const Bf16Bits* q, const Bf16Bits* k, const Bf16Bits* v, const Bf16Bits* o,
           const Bf16Bits* d_o, Bf16Bits* dq, Bf16Bits* dk, Bf16Bits* dv, cudaStream_t s);

 private:
  cuda::AttentionShape shape_;
  cublasHandle_t handle_ = nullptr;
  // One batch's [H, Sq, Skv] at a time: fp32 scores, reused for dP; bf16 P, overwritten by dS.
  cuda::DeviceBuffer<float> scores_;
  cuda::DeviceBuffer<Bf16Bits> probs_;
};

// The row kernels (unfused_attention_backward.cu); `rows` rows of `cols` each, contiguous.
// probs[r, :] = softmax(scores[r, :]) in fp32, stored bf16.
void softmax_rows(const float* scores, Bf16Bits* probs, std::int64_t rows, std::int64_t cols,
                  cudaStream_t s);
// In place over P: dS[r, j] = P[r, j]·(dP[r, j] − δ_r), δ_r = Σ_d dO·O over row r = h·Sq + i of
// one batch, whose O and dO rows sit at i·heads·head_dim + h·head_dim.
void softmax_backward_rows(Bf16Bits* probs_to_d_scores, const float* d_probs, const Bf16Bits* o,
                           const Bf16Bits* d_o, std::int64_t heads, std::int64_t seq_q,
                           std::int64_t seq_kv, std::int64_t head_dim, cudaStream_t s);

}  // namespace perfgate::step_proxy::gpu

#pragma once
// Scaled-dot-product attention, three ways, on one layout: Q and O are [B, Sq, H, D], K and V
// [B, Skv, Hkv, D] (heads grouped over K/V heads: GQA), bf16 or f16, softmax scale 1/sqrt(D).
// A causal mask aligns the last query with the last key (query i sees keys <= i + Skv - Sq).
#include <cublas_v2.h>
#include <cuda_runtime.h>

#include <cstdint>
#include <memory>
#include <string>

#include "perfgate/cuda/device_buffer.hpp"
#include "perfgate/cuda/traffic_model.hpp"

namespace perfgate::cuda {

// Own FlashAttention-2-style forward (mma.sync tensor cores, online softmax, K/V tiles
// double-buffered through cp.async). Supports head_dim 64 and 128, sequences multiple of 64.
bool flash_supported(AttentionShape s, Precision p, std::string* why);
void flash_attention_forward(Precision p, AttentionShape s, const void* q, const void* k,
                             const void* v, void* o, cudaStream_t stream);

// The unfused baseline: batched cuBLAS QK^T into fp32 scores, a masked softmax kernel into
// probabilities, batched cuBLAS PV. Owns the score and probability buffers.
class UnfusedAttention {
 public:
  UnfusedAttention(AttentionShape s, Precision p, const void* q, const void* k, const void* v,
                   void* o);
  ~UnfusedAttention();
  UnfusedAttention(const UnfusedAttention&) = delete;
  UnfusedAttention& operator=(const UnfusedAttention&) = delete;
  void run(cudaStream_t stream) const;
  static std::size_t scratch_bytes(AttentionShape s, Precision p);

 private:
  AttentionShape shape_;
  Precision precision_;
  cublasHandle_t handle_ = nullptr;
  DeviceBuffer<float> scores_;
  DeviceBuffer<unsigned char> probs_;
  DeviceBuffer<const void*> q_ptrs_, k_ptrs_, v_ptrs_, p_ptrs_;
  DeviceBuffer<void*> s_out_, o_out_;
};

// cuDNN's fused SDPA through the cuDNN 9 backend API: the SDPA_FWD / SDPA_BWD operation where the
// loaded cuDNN offers it, else (and for causal masks, which that operation has no attribute for)
// a composite graph (matmuls, scale, mask, softmax and its gradient) that cuDNN fuses into one
// kernel. Construction builds the plan;
// it throws Unsupported when no path applies to the shape, ToolError naming cuDNN's reasons when
// every path is refused.
class CudnnSdpa {
 public:
  enum class Direction { forward, backward };
  CudnnSdpa(AttentionShape s, Precision p, Direction d);
  ~CudnnSdpa();
  CudnnSdpa(const CudnnSdpa&) = delete;
  CudnnSdpa& operator=(const CudnnSdpa&) = delete;

  // Forward: stats may be null (inference); it is [B, H, Sq] fp32 log-sum-exp for backward.
  void forward(const void* q, const void* k, const void* v, void* o, float* stats, cudaStream_t s);
  void backward(const void* q, const void* k, const void* v, const void* o, const void* d_o,
                const float* stats, void* dq, void* dk, void* dv, cudaStream_t s);
  static std::string version();     // "9.19.0" of the loaded library
  const std::string& path() const;  // "SDPA operation" or "composite graph ..."
  bool composite() const;           // the forward plan is the composite graph

 private:
  struct Plan;
  std::unique_ptr<Plan> plan_;
  AttentionShape shape_;
  Direction direction_;
};

}  // namespace perfgate::cuda

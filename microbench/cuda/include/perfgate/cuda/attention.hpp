#pragma once
// Scaled-dot-product attention, three ways, on one layout: Q and O are [B, Sq, H, D], K and V
// [B, Skv, Hkv, D] (heads grouped over K/V heads: GQA), bf16 or f16, softmax scale 1/sqrt(D).
// A causal mask aligns the last query with the last key (query i sees keys <= i + Skv - Sq).
#include <cublas_v2.h>
#include <cuda_runtime.h>

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "perfgate/cuda/device_buffer.hpp"
#include "perfgate/cuda/traffic_model.hpp"

namespace perfgate::cuda {

// A packed variable-length batch (the "THD" layout of cu_seqlens kernels): sequence i holds rows
// cu_q[i] .. cu_q[i+1] of Q and O and rows cu_kv[i] .. cu_kv[i+1] of K and V, one after the
// other with no padding; the shape's seq_q and seq_kv bound the lengths. Empty: a uniform batch.
struct PackedSequences {
  std::vector<std::int64_t> cu_q, cu_kv;
  bool empty() const { return cu_q.empty() && cu_kv.empty(); }
};
// Throws InputError naming the problem unless both lists hold s.batch + 1 offsets rising from
// 0, each length between 1 and s.seq_q (s.seq_kv for cu_kv).
void validate(const PackedSequences& packed, AttentionShape s);
// Sequence lengths of cumulative offsets; element offsets (rows times row_elements).
std::vector<std::int32_t> sequence_lengths(const std::vector<std::int64_t>& cu);
std::vector<std::int64_t> element_offsets(const std::vector<std::int64_t>& cu,
                                          std::int64_t row_elements);

// Own FlashAttention-2-style forward (mma.sync tensor cores, online softmax, K/V tiles
// double-buffered through cp.async). Supports head_dim 64 and 128; a uniform batch needs
// sequences multiple of 64, a packed one (any lengths up to the shape's) its offsets on the
// device as int32 (FlashPacking; null pointers: uniform).
struct FlashPacking {
  const std::int32_t* cu_q = nullptr;   // device, batch + 1 row offsets of Q and O
  const std::int32_t* cu_kv = nullptr;  // device, batch + 1 row offsets of K and V
  bool packed() const { return cu_q != nullptr; }
};
bool flash_supported(AttentionShape s, Precision p, std::string* why, bool packed = false);
void flash_attention_forward(Precision p, AttentionShape s, const void* q, const void* k,
                             const void* v, void* o, cudaStream_t stream,
                             const FlashPacking& packing = {});

// The same forward with FlashAttention-2's 128-query tile (32 queries per warp, Q staged in
// shared memory): twice the mma per K/V fragment loaded. Uniform batches with query sequences
// multiple of 128; measured beside the 64-query kernel by the device check.
bool flash_wide_supported(AttentionShape s, Precision p, std::string* why);
void flash_attention_forward_wide(Precision p, AttentionShape s, const void* q, const void* k,
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
// kernel. A packed batch adds cuDNN's padding mask (per-sequence lengths) and ragged offsets on
// every Q-, K-, V- and O-like tensor; its stats stay padded, [B, H, seq_q]. Construction builds
// the plan; it throws Unsupported when no path applies to the shape, ToolError naming cuDNN's
// reasons when every path is refused.
class CudnnSdpa {
 public:
  enum class Direction { forward, backward };
  CudnnSdpa(AttentionShape s, Precision p, Direction d, const PackedSequences& packed = {});
  ~CudnnSdpa();
  CudnnSdpa(const CudnnSdpa&) = delete;
  CudnnSdpa& operator=(const CudnnSdpa&) = delete;

  // Forward: stats may be null (inference); it is [B, H, Sq] fp32 log-sum-exp for backward.
  void forward(const void* q, const void* k, const void* v, void* o, float* stats, cudaStream_t s);
  void backward(const void* q, const void* k, const void* v, const void* o, const void* d_o,
                const float* stats, void* dq, void* dk, void* dv, cudaStream_t s);
  static std::string version();     // "9.19.0" of the loaded library
  const std::string& path() const;  // "SDPA operation" or "composite graph ...", "(packed)"
  bool composite() const;           // the plan is the composite graph

 private:
  struct Plan;
  std::unique_ptr<Plan> plan_;
  AttentionShape shape_;
  Direction direction_;
};

}  // namespace perfgate::cuda

#pragma once
// Row-major bf16 GEMMs through cuBLASLt with either operand transposed, fp32 accumulation:
//   C[M,N] = alpha · op(A) · op(B) + beta · C,  A stored [M,K] (or [K,M] when trans_a),
//   B stored [K,N] (or [N,K] when trans_b).
// The families' LtGemm only has the forward (TN) form; a training step also needs the data
// gradient (NN: dX = dY·W) and the weight gradient (TN on the other side: dW = dYᵀ·X).
#include <cublasLt.h>
#include <cuda_runtime.h>

#include <map>
#include <memory>
#include <tuple>

#include "perfgate/cuda/device_buffer.hpp"

namespace perfgate::step_proxy::gpu {

struct GemmDims {
  long long m = 1, n = 1, k = 1;
  bool trans_a = false, trans_b = false;
  auto tied() const { return std::tie(m, n, k, trans_a, trans_b); }
  bool operator<(const GemmDims& o) const { return tied() < o.tied(); }
};

class LtMatmul {
 public:
  LtMatmul(cublasLtHandle_t handle, GemmDims dims,
           std::size_t workspace_bytes);  // heuristic's first algorithm
  ~LtMatmul();
  LtMatmul(const LtMatmul&) = delete;
  LtMatmul& operator=(const LtMatmul&) = delete;
  // D = op(A)·op(B) + beta·C; C and D may be one buffer.
  void run(const void* a, const void* b, const void* c, void* d, float beta, void* workspace,
           cudaStream_t s) const;

 private:
  void release() noexcept;
  cublasLtHandle_t handle_;
  std::size_t workspace_bytes_;
  cublasLtMatmulDesc_t op_ = nullptr;
  cublasLtMatrixLayout_t b_layout_ = nullptr, a_layout_ = nullptr, c_layout_ = nullptr;
  cublasLtMatmulAlgo_t algo_{};
};

// One plan per distinct shape, sharing a handle and a workspace (everything runs on one stream).
class GemmPlans {
 public:
  GemmPlans();
  ~GemmPlans();
  GemmPlans(const GemmPlans&) = delete;
  GemmPlans& operator=(const GemmPlans&) = delete;
  // C = op(A)·op(B) + beta·(c_in, or C itself when null): a residual sum reads another buffer.
  void run(GemmDims dims, const void* a, const void* b, void* c, cudaStream_t s, float beta = 0.0f,
           const void* c_in = nullptr);

 private:
  cublasLtHandle_t handle_ = nullptr;
  cuda::DeviceBuffer<unsigned char> workspace_;
  std::map<GemmDims, std::unique_ptr<LtMatmul>> plans_;
};

}  // namespace perfgate::step_proxy::gpu

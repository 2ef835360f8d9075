#pragma once
// GEMM through cuBLASLt: C[M,N] = A[M,K] · W[N,K]^T (+ bias[N]) (then GeLU), the weight laid
// out as a linear layer's [out, in] (the TN form that fp8 on Hopper requires). bf16/f16/f32
// write their input precision; fp8 (e4m3) writes bf16 and needs compute capability >= 8.9.
#include <cublasLt.h>
#include <cublas_v2.h>
#include <cuda_runtime.h>

#include <cstdint>
#include <string>

#include "perfgate/cuda/device_buffer.hpp"
#include "perfgate/cuda/traffic_model.hpp"

namespace perfgate::cuda {

enum class Epilogue { none, bias, bias_gelu };
const char* to_string(Epilogue e);

// Whether this device can run `p` through cuBLASLt; `why` says why not.
bool gemm_supported(Precision p, int compute_capability_major, int compute_capability_minor,
                    std::string* why);

// The heuristic's first algorithm for `op` on these layouts (D laid out as C), within
// `workspace_bytes` and, when min_alignment > 0, for pointers aligned to that many bytes.
// Throws Unsupported naming `what` when cuBLASLt has none for this configuration on this GPU.
cublasLtMatmulAlgo_t first_algorithm(cublasLtHandle_t handle, cublasLtMatmulDesc_t op,
                                     cublasLtMatrixLayout_t a, cublasLtMatrixLayout_t b,
                                     cublasLtMatrixLayout_t c, std::size_t workspace_bytes,
                                     std::uint32_t min_alignment, const std::string& what);

class LtGemm {
 public:
  // Picks the heuristic's first algorithm; throws Unsupported when cuBLASLt has none for this
  // type, shape and epilogue on this GPU.
  LtGemm(GemmShape shape, Precision precision, Epilogue epilogue);
  ~LtGemm();
  LtGemm(const LtGemm&) = delete;
  LtGemm& operator=(const LtGemm&) = delete;

  // `bias` (n elements of the output type) is required with a bias epilogue.
  void run(const void* a, const void* w, void* c, const void* bias, cudaStream_t s) const;
  Precision output_precision() const {
    return precision_ == Precision::fp8 ? Precision::bf16 : precision_;
  }

 private:
  void describe();
  void choose_algorithm();
  void release() noexcept;
  GemmShape shape_;
  Precision precision_;
  Epilogue epilogue_;
  cublasLtHandle_t handle_ = nullptr;
  cublasLtMatmulDesc_t op_ = nullptr;
  cublasLtMatrixLayout_t a_ = nullptr, b_ = nullptr, c_ = nullptr;
  cublasLtMatmulAlgo_t algo_{};
  DeviceBuffer<unsigned char> workspace_;
};

// The GEMM ceiling's reference: plain cublasGemmEx, bf16 in/out, fp32 accumulate, same layout.
class CublasGemm {
 public:
  CublasGemm();
  ~CublasGemm();
  CublasGemm(const CublasGemm&) = delete;
  CublasGemm& operator=(const CublasGemm&) = delete;
  void run_bf16(GemmShape shape, const void* a, const void* w, void* c, cudaStream_t s) const;
  // Batched strided/pointer-array products for the unfused attention.
  cublasHandle_t handle() const { return handle_; }

 private:
  cublasHandle_t handle_ = nullptr;
};

}  // namespace perfgate::cuda

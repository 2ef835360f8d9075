#include "perfgate/cuda/gemm_lt.hpp"

#include <cuda_bf16.h>

#include "perfgate/cuda/check.hpp"

namespace perfgate::cuda {
namespace {

constexpr std::size_t kWorkspaceBytes = 64u << 20;

cudaDataType_t cuda_type(Precision p) {
  switch (p) {
    case Precision::f32:
      return CUDA_R_32F;
    case Precision::bf16:
      return CUDA_R_16BF;
    case Precision::f16:
      return CUDA_R_16F;
    case Precision::fp8:
      return CUDA_R_8F_E4M3;
  }
  return CUDA_R_32F;
}

template <class T>
void set(cublasLtMatmulDesc_t d, cublasLtMatmulDescAttributes_t attr, const T& value) {
  PERFGATE_CUBLAS_CHECK(cublasLtMatmulDescSetAttribute(d, attr, &value, sizeof(value)));
}

}  // namespace

const char* to_string(Epilogue e) {
  switch (e) {
    case Epilogue::none:
      return "none";
    case Epilogue::bias:
      return "bias";
    case Epilogue::bias_gelu:
      return "bias_gelu";
  }
  return "?";
}

bool gemm_supported(Precision p, int major, int minor, std::string* why) {
  if (major < 8) {
    if (why) *why = "cuBLASLt bf16 GEMMs need compute capability >= 8.0";
    return false;
  }
  if (p == Precision::fp8 && (major * 10 + minor) < 89) {
    if (why) *why = "fp8 GEMMs need compute capability >= 8.9 (Ada/Hopper)";
    return false;
  }
  return true;
}

LtGemm::LtGemm(GemmShape shape, Precision precision, Epilogue epilogue)
    : shape_(shape), precision_(precision), epilogue_(epilogue), workspace_(kWorkspaceBytes) {
  (void)gemm_traffic(shape, precision, false);  // validates the shape
  try {
    describe();
    choose_algorithm();
  } catch (...) {
    release();  // the destructor does not run for a constructor that throws
    throw;
  }
}

void LtGemm::describe() {
  const cudaDataType_t in = cuda_type(precision_);
  const cudaDataType_t out = cuda_type(output_precision());
  const cublasComputeType_t compute =
      CUBLAS_COMPUTE_32F;  // f32 stays IEEE fp32: its check bound is tight
  PERFGATE_CUBLAS_CHECK(cublasLtCreate(&handle_));
  PERFGATE_CUBLAS_CHECK(cublasLtMatmulDescCreate(&op_, compute, CUDA_R_32F));
  // Column-major view: C^T[N,M] = W[N,K] · A^T[K,M], W read transposed from its [N,K] rows.
  set(op_, CUBLASLT_MATMUL_DESC_TRANSA, CUBLAS_OP_T);
  set(op_, CUBLASLT_MATMUL_DESC_TRANSB, CUBLAS_OP_N);
  if (precision_ == Precision::fp8) set(op_, CUBLASLT_MATMUL_DESC_FAST_ACCUM, std::int8_t(1));
  if (epilogue_ != Epilogue::none) {
    set(op_, CUBLASLT_MATMUL_DESC_EPILOGUE,
        epilogue_ == Epilogue::bias ? CUBLASLT_EPILOGUE_BIAS : CUBLASLT_EPILOGUE_GELU_BIAS);
    set(op_, CUBLASLT_MATMUL_DESC_BIAS_DATA_TYPE, out);
  }
  const auto m = std::uint64_t(shape_.m), n = std::uint64_t(shape_.n), k = std::uint64_t(shape_.k);
  PERFGATE_CUBLAS_CHECK(
      cublasLtMatrixLayoutCreate(&a_, in, k, n, std::int64_t(k)));  // W as [K,N] col-major
  PERFGATE_CUBLAS_CHECK(cublasLtMatrixLayoutCreate(&b_, in, k, m, std::int64_t(k)));  // A^T
  PERFGATE_CUBLAS_CHECK(cublasLtMatrixLayoutCreate(&c_, out, n, m, std::int64_t(n)));
}

void LtGemm::choose_algorithm() {
  algo_ = first_algorithm(
      handle_, op_, a_, b_, c_, kWorkspaceBytes, 0,
      std::string(to_string(precision_)) + " with epilogue " + to_string(epilogue_));
}

cublasLtMatmulAlgo_t first_algorithm(cublasLtHandle_t handle, cublasLtMatmulDesc_t op,
                                     cublasLtMatrixLayout_t a, cublasLtMatrixLayout_t b,
                                     cublasLtMatrixLayout_t c, std::size_t workspace_bytes,
                                     std::uint32_t min_alignment, const std::string& what) {
  cublasLtMatmulPreference_t pref = nullptr;
  PERFGATE_CUBLAS_CHECK(cublasLtMatmulPreferenceCreate(&pref));
  cublasStatus_t status = cublasLtMatmulPreferenceSetAttribute(
      pref, CUBLASLT_MATMUL_PREF_MAX_WORKSPACE_BYTES, &workspace_bytes, sizeof(workspace_bytes));
  if (min_alignment > 0)
    for (auto attr :
         {CUBLASLT_MATMUL_PREF_MIN_ALIGNMENT_A_BYTES, CUBLASLT_MATMUL_PREF_MIN_ALIGNMENT_B_BYTES,
          CUBLASLT_MATMUL_PREF_MIN_ALIGNMENT_C_BYTES, CUBLASLT_MATMUL_PREF_MIN_ALIGNMENT_D_BYTES})
      if (status == CUBLAS_STATUS_SUCCESS)
        status =
            cublasLtMatmulPreferenceSetAttribute(pref, attr, &min_alignment, sizeof(min_alignment));
  cublasLtMatmulHeuristicResult_t result{};
  int found = 0;
  if (status == CUBLAS_STATUS_SUCCESS)
    status = cublasLtMatmulAlgoGetHeuristic(handle, op, a, b, c, c, pref, 1, &result, &found);
  cublasLtMatmulPreferenceDestroy(pref);
  // NOT_SUPPORTED is cuBLASLt's answer for a configuration it has no kernel for (this type or
  // epilogue on this GPU): a case this machine cannot run, not a failure.
  if (status == CUBLAS_STATUS_NOT_SUPPORTED || (status == CUBLAS_STATUS_SUCCESS && found == 0))
    throw Unsupported("cuBLASLt has no algorithm for " + what + " on this GPU");
  PERFGATE_CUBLAS_CHECK(status);
  PERFGATE_CUBLAS_CHECK(result.state);
  return result.algo;
}

void LtGemm::release() noexcept {
  if (c_) cublasLtMatrixLayoutDestroy(c_);
  if (b_) cublasLtMatrixLayoutDestroy(b_);
  if (a_) cublasLtMatrixLayoutDestroy(a_);
  if (op_) cublasLtMatmulDescDestroy(op_);
  if (handle_) cublasLtDestroy(handle_);
  c_ = b_ = a_ = nullptr;
  op_ = nullptr;
  handle_ = nullptr;
}

LtGemm::~LtGemm() {
  release();
}

void LtGemm::run(const void* a, const void* w, void* c, const void* bias, cudaStream_t s) const {
  if (epilogue_ != Epilogue::none) {
    // Without a pointer the epilogue would read address 0 and poison the context.
    if (bias == nullptr)
      throw InputError(std::string("GEMM: epilogue ") + to_string(epilogue_) + " needs a bias");
    PERFGATE_CUBLAS_CHECK(cublasLtMatmulDescSetAttribute(op_, CUBLASLT_MATMUL_DESC_BIAS_POINTER,
                                                         &bias, sizeof(bias)));
  }
  const float one = 1.0f, zero = 0.0f;
  PERFGATE_CUBLAS_CHECK(cublasLtMatmul(handle_, op_, &one, w, a_, a, b_, &zero, c, c_, c, c_,
                                       &algo_, workspace_.get(), workspace_.bytes(), s));
}

CublasGemm::CublasGemm() {
  PERFGATE_CUBLAS_CHECK(cublasCreate(&handle_));
}
CublasGemm::~CublasGemm() {
  cublasDestroy(handle_);
}

void CublasGemm::run_bf16(GemmShape shape, const void* a, const void* w, void* c,
                          cudaStream_t s) const {
  const float one = 1.0f, zero = 0.0f;
  PERFGATE_CUBLAS_CHECK(cublasSetStream(handle_, s));
  PERFGATE_CUBLAS_CHECK(cublasGemmEx(handle_, CUBLAS_OP_T, CUBLAS_OP_N, int(shape.n), int(shape.m),
                                     int(shape.k), &one, w, CUDA_R_16BF, int(shape.k), a,
                                     CUDA_R_16BF, int(shape.k), &zero, c, CUDA_R_16BF, int(shape.n),
                                     CUBLAS_COMPUTE_32F, CUBLAS_GEMM_DEFAULT));
}

}  // namespace perfgate::cuda

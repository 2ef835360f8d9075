#include "lt_matmul.hpp"

#include <cstdint>
#include <string>

#include "perfgate/cuda/check.hpp"
#include "perfgate/cuda/gemm_lt.hpp"

namespace perfgate::step_proxy::gpu {
namespace {

constexpr std::size_t kWorkspaceBytes = 32u << 20;
// Tensors sit at offsets inside larger buffers (a layer's weights, the gradient buffer): ask
// only for the 16-byte alignment every offset keeps when hidden is a multiple of 8.
constexpr std::uint32_t kAlignmentBytes = 16;

template <class T>
void set(cublasLtMatmulDesc_t d, cublasLtMatmulDescAttributes_t attr, const T& value) {
  PERFGATE_CUBLAS_CHECK(cublasLtMatmulDescSetAttribute(d, attr, &value, sizeof(value)));
}

cublasLtMatrixLayout_t layout(std::uint64_t rows, std::uint64_t cols) {
  cublasLtMatrixLayout_t l = nullptr;
  PERFGATE_CUBLAS_CHECK(
      cublasLtMatrixLayoutCreate(&l, CUDA_R_16BF, rows, cols, static_cast<std::int64_t>(rows)));
  return l;
}

}  // namespace

LtMatmul::LtMatmul(cublasLtHandle_t handle, GemmDims d, std::size_t workspace_bytes)
    : handle_(handle), workspace_bytes_(workspace_bytes) {
  try {
    // Row-major C = op(A)·op(B) is column-major Cᵀ = op(B)ᵀ·op(A)ᵀ: cuBLASLt's first operand
    // is B's storage, its second A's; a row-major [r,c] buffer is a column-major [c,r] one.
    const auto m = std::uint64_t(d.m), n = std::uint64_t(d.n), k = std::uint64_t(d.k);
    PERFGATE_CUBLAS_CHECK(cublasLtMatmulDescCreate(&op_, CUBLAS_COMPUTE_32F, CUDA_R_32F));
    set(op_, CUBLASLT_MATMUL_DESC_TRANSA, d.trans_b ? CUBLAS_OP_T : CUBLAS_OP_N);
    set(op_, CUBLASLT_MATMUL_DESC_TRANSB, d.trans_a ? CUBLAS_OP_T : CUBLAS_OP_N);
    b_layout_ = d.trans_b ? layout(k, n) : layout(n, k);
    a_layout_ = d.trans_a ? layout(m, k) : layout(k, m);
    c_layout_ = layout(n, m);
    algo_ = cuda::first_algorithm(handle_, op_, b_layout_, a_layout_, c_layout_, workspace_bytes_,
                                  kAlignmentBytes,
                                  "bf16 m=" + std::to_string(d.m) + " n=" + std::to_string(d.n) +
                                      " k=" + std::to_string(d.k));
  } catch (...) {
    release();  // the destructor does not run for a constructor that throws
    throw;
  }
}

void LtMatmul::release() noexcept {
  if (c_layout_) cublasLtMatrixLayoutDestroy(c_layout_);
  if (a_layout_) cublasLtMatrixLayoutDestroy(a_layout_);
  if (b_layout_) cublasLtMatrixLayoutDestroy(b_layout_);
  if (op_) cublasLtMatmulDescDestroy(op_);
  c_layout_ = a_layout_ = b_layout_ = nullptr;
  op_ = nullptr;
}

LtMatmul::~LtMatmul() {
  release();
}

void LtMatmul::run(const void* a, const void* b, const void* c, void* d, float beta,
                   void* workspace, cudaStream_t s) const {
  const float one = 1.0f;
  PERFGATE_CUBLAS_CHECK(cublasLtMatmul(handle_, op_, &one, b, b_layout_, a, a_layout_, &beta, c,
                                       c_layout_, d, c_layout_, &algo_, workspace, workspace_bytes_,
                                       s));
}

GemmPlans::GemmPlans() : workspace_(kWorkspaceBytes) {
  PERFGATE_CUBLAS_CHECK(cublasLtCreate(&handle_));
}

GemmPlans::~GemmPlans() {
  plans_.clear();
  if (handle_) cublasLtDestroy(handle_);
}

void GemmPlans::run(GemmDims dims, const void* a, const void* b, void* c, cudaStream_t s,
                    float beta, const void* c_in) {
  auto it = plans_.find(dims);
  if (it == plans_.end())
    it = plans_.emplace(dims, std::make_unique<LtMatmul>(handle_, dims, workspace_.bytes())).first;
  it->second->run(a, b, c_in != nullptr ? c_in : c, c, beta, workspace_.get(), s);
}

}  // namespace perfgate::step_proxy::gpu

// Unfused attention baseline: batched cuBLAS QK^T (fp32 scores), a masked softmax kernel,
// batched cuBLAS PV. Pointer arrays make GQA a matter of which K/V head each batch entry reads.
#include <cmath>
#include <vector>

#include "perfgate/cuda/attention.hpp"
#include "perfgate/cuda/check.hpp"
#include "perfgate/cuda/fused_ops.hpp"

namespace perfgate::cuda {
namespace {

cudaDataType_t io_type(Precision p) {
  return p == Precision::bf16 ? CUDA_R_16BF : CUDA_R_16F;
}

}  // namespace

std::size_t UnfusedAttention::scratch_bytes(AttentionShape s, Precision p) {
  const std::size_t scores = std::size_t(s.batch * s.heads) * std::size_t(s.seq_q * s.seq_kv);
  return scores * (sizeof(float) + element_bytes(p));
}

UnfusedAttention::UnfusedAttention(AttentionShape s, Precision p, const void* q, const void* k,
                                   const void* v, void* o)
    : shape_(s), precision_(p) {
  validate(s);
  if (p != Precision::bf16 && p != Precision::f16)
    throw InputError("cuda unfused attention: precision must be bf16 or f16");
  // Declined like cuDNN and the flash kernel: the first Sq − Skv query rows would see no key,
  // and their softmax has nothing to normalise.
  if (s.causal && s.seq_q > s.seq_kv)
    throw Unsupported(
        "cuda unfused attention: a causal mask with more queries than keys leaves rows empty");
  const std::size_t matrices = std::size_t(s.batch * s.heads),
                    each = std::size_t(s.seq_q * s.seq_kv);
  const std::size_t e = element_bytes(p);
  scores_ = DeviceBuffer<float>(matrices * each);
  probs_ = DeviceBuffer<unsigned char>(matrices * each * e);
  std::vector<const void*> qp, kp, vp, pp;
  std::vector<void*> so, po, oo;
  const auto* qc = static_cast<const unsigned char*>(q);
  const auto* kc = static_cast<const unsigned char*>(k);
  const auto* vc = static_cast<const unsigned char*>(v);
  auto* oc = static_cast<unsigned char*>(o);
  const std::int64_t group = s.heads / s.kv_heads;
  for (std::int64_t b = 0; b < s.batch; ++b)
    for (std::int64_t h = 0; h < s.heads; ++h) {
      const std::size_t q_off = std::size_t((b * s.seq_q * s.heads + h) * s.head_dim) * e;
      const std::size_t kv_off =
          std::size_t((b * s.seq_kv * s.kv_heads + h / group) * s.head_dim) * e;
      const std::size_t m = std::size_t(b * s.heads + h);
      qp.push_back(qc + q_off);
      kp.push_back(kc + kv_off);
      vp.push_back(vc + kv_off);
      so.push_back(scores_.get() + m * each);
      po.push_back(probs_.get() + m * each * e);
      oo.push_back(oc + q_off);
      pp.push_back(po.back());
    }
  q_ptrs_ = DeviceBuffer<const void*>(qp);
  k_ptrs_ = DeviceBuffer<const void*>(kp);
  v_ptrs_ = DeviceBuffer<const void*>(vp);
  p_ptrs_ = DeviceBuffer<const void*>(pp);
  s_out_ = DeviceBuffer<void*>(so);
  o_out_ = DeviceBuffer<void*>(oo);
  PERFGATE_CUBLAS_CHECK(cublasCreate(&handle_));
}

UnfusedAttention::~UnfusedAttention() {
  if (handle_ != nullptr) cublasDestroy(handle_);
}

void UnfusedAttention::run(cudaStream_t stream) const {
  const AttentionShape& s = shape_;
  const int batch = int(s.batch * s.heads);
  const int q_ld = int(s.heads * s.head_dim), kv_ld = int(s.kv_heads * s.head_dim);
  const float one = 1.0f, zero = 0.0f;
  PERFGATE_CUBLAS_CHECK(cublasSetStream(handle_, stream));
  // Column-major view: S^T[Skv, Sq] = K · Q^T, i.e. row-major S[Sq, Skv].
  PERFGATE_CUBLAS_CHECK(cublasGemmBatchedEx(
      handle_, CUBLAS_OP_T, CUBLAS_OP_N, int(s.seq_kv), int(s.seq_q), int(s.head_dim), &one,
      k_ptrs_.get(), io_type(precision_), kv_ld, q_ptrs_.get(), io_type(precision_), q_ld, &zero,
      s_out_.get(), CUDA_R_32F, int(s.seq_kv), batch, CUBLAS_COMPUTE_32F, CUBLAS_GEMM_DEFAULT));
  masked_softmax_f32_in(precision_, scores_.get(), probs_.get(), RowShape{s.seq_q, s.seq_kv}, batch,
                        s.causal, float(1.0 / std::sqrt(double(s.head_dim))), stream);
  // O^T[D, Sq] = V^T[D, Skv] · P^T[Skv, Sq].
  PERFGATE_CUBLAS_CHECK(cublasGemmBatchedEx(
      handle_, CUBLAS_OP_N, CUBLAS_OP_N, int(s.head_dim), int(s.seq_q), int(s.seq_kv), &one,
      v_ptrs_.get(), io_type(precision_), kv_ld, p_ptrs_.get(), io_type(precision_), int(s.seq_kv),
      &zero, o_out_.get(), io_type(precision_), q_ld, batch, CUBLAS_COMPUTE_32F,
      CUBLAS_GEMM_DEFAULT));
}

}  // namespace perfgate::cuda

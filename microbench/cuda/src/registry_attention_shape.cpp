#include "registry_attention_shape.hpp"

namespace perfgate::microbench::cuda_backend {

bool is_varlen(const CaseParams& params) {
  return params.has("varlen") && params.flag("varlen");
}

// Ragged cu_seqlens offsets are not wired into cuDNN or the flash kernel.
perfgate::cuda::AttentionShape uniform_shape(const AttentionProblem& p, const CaseParams& params,
                                             const std::string& label) {
  if (is_varlen(params))
    throw CaseUnsupported("cuda " + label +
                          ": packed variable-length batches (ragged offsets) are not supported");
  if (p.dtype == DType::f32)
    throw CaseUnsupported("cuda " + label + ": needs bf16 or f16 storage, not f32");
  perfgate::cuda::AttentionShape s;
  s.batch = std::int64_t(p.cu_q.size() - 1);
  s.heads = std::int64_t(p.h);
  s.kv_heads = std::int64_t(p.hkv);
  s.seq_q = std::int64_t(p.cu_q[1] - p.cu_q[0]);
  s.seq_kv = std::int64_t(p.cu_k[1] - p.cu_k[0]);
  s.head_dim = std::int64_t(p.d);
  s.causal = p.causal;
  return s;
}

void add_cudnn_notes(nlohmann::json& notes, const perfgate::cuda::CudnnSdpa& sdpa) {
  notes["cudnn_path"] = sdpa.path();  // the SDPA operation or the composite graph
  notes["cudnn_version"] = perfgate::cuda::CudnnSdpa::version();
}

}  // namespace perfgate::microbench::cuda_backend

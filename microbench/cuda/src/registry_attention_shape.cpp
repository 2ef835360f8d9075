#include "registry_attention_shape.hpp"

#include <algorithm>
#include <limits>

namespace perfgate::microbench::cuda_backend {
namespace {

std::int64_t longest(const std::vector<std::size_t>& cu) {
  std::size_t most = 0;
  for (std::size_t i = 0; i + 1 < cu.size(); ++i) most = std::max(most, cu[i + 1] - cu[i]);
  return std::int64_t(most);
}

std::vector<std::int64_t> signed_offsets(const std::vector<std::size_t>& cu) {
  return {cu.begin(), cu.end()};
}

}  // namespace

bool is_varlen(const CaseParams& params) {
  return params.has("varlen") && params.flag("varlen");
}

perfgate::cuda::AttentionShape attention_shape(const AttentionProblem& p,
                                               const std::string& label) {
  if (p.dtype == DType::f32)
    throw CaseUnsupported("cuda " + label + ": needs bf16 or f16 storage, not f32");
  perfgate::cuda::AttentionShape s;
  s.batch = std::int64_t(p.cu_q.size() - 1);
  s.heads = std::int64_t(p.h);
  s.kv_heads = std::int64_t(p.hkv);
  s.seq_q = longest(p.cu_q);
  s.seq_kv = longest(p.cu_k);
  s.head_dim = std::int64_t(p.d);
  s.causal = p.causal;
  return s;
}

perfgate::cuda::PackedSequences packed_sequences(const AttentionProblem& p,
                                                 const CaseParams& params) {
  if (!is_varlen(params)) return {};
  return {signed_offsets(p.cu_q), signed_offsets(p.cu_k)};
}

std::vector<std::int32_t> row_offsets32(const std::vector<std::size_t>& cu,
                                        const std::string& label) {
  if (cu.back() > std::size_t(std::numeric_limits<std::int32_t>::max()))
    throw CaseUnsupported("cuda " + label + ": more than 2^31 - 1 packed rows");
  return {cu.begin(), cu.end()};
}

void add_cudnn_notes(nlohmann::json& notes, const perfgate::cuda::CudnnSdpa& sdpa) {
  notes["cudnn_path"] = sdpa.path();  // the SDPA operation or the composite graph
  notes["cudnn_version"] = perfgate::cuda::CudnnSdpa::version();
}

}  // namespace perfgate::microbench::cuda_backend

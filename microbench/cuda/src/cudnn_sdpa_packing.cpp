#include "cudnn_sdpa_packing.hpp"

namespace perfgate::cuda::sdpa_packing {
namespace {

namespace layout = sdpa_layout;

cudnn_graph::TensorSpec column(std::int64_t uid, cudnnDataType_t type, std::int64_t count) {
  return {uid, type, {count, 1, 1, 1}, {1, 1, 1, 1}};
}

cudnn_graph::TensorSpec ragged(cudnn_graph::TensorSpec spec, cudnnBackendDescriptor_t offsets) {
  spec.ragged_offset = offsets;
  return spec;
}

}  // namespace

cudnnDataType_t offset_type() {
  return cudnnGetVersion() >= 90600 ? CUDNN_DATA_INT64 : CUDNN_DATA_INT32;
}

Packing::Packing(cudnn_graph::Graph& g, const AttentionShape& s, bool packed) {
  if (!packed) return;
  seq_len_q_ = g.tensor(column(layout::seq_len_q_uid, CUDNN_DATA_INT32, s.batch));
  seq_len_kv_ = g.tensor(column(layout::seq_len_kv_uid, CUDNN_DATA_INT32, s.batch));
  q_offsets_ = g.tensor(column(layout::q_offsets_uid, offset_type(), s.batch + 1));
  kv_offsets_ = g.tensor(column(layout::kv_offsets_uid, offset_type(), s.batch + 1));
}

cudnn_graph::TensorSpec Packing::q_rows(std::int64_t uid, cudnnDataType_t type,
                                        const layout::View& view) const {
  return ragged(layout::spec(uid, type, view), q_offsets_);
}

cudnn_graph::TensorSpec Packing::kv_rows(std::int64_t uid, cudnnDataType_t type,
                                         const layout::View& view) const {
  return ragged(layout::spec(uid, type, view), kv_offsets_);
}

cudnnBackendDescriptor_t Packing::length(Rows r) const {
  return r == Rows::q ? seq_len_q_ : (r == Rows::kv ? seq_len_kv_ : nullptr);
}

cudnn_graph::MatmulOverrides Packing::sizes(Rows m, Rows n, Rows k) const {
  return {length(m), length(n), length(k)};
}

}  // namespace perfgate::cuda::sdpa_packing

#pragma once
// What cuDNN's two attention graphs (the SDPA operation and the composite graph) share: the
// tensors' unique ids and the logical [B, H, S, D] views of perfgate's [B, S, H, D] storage.
#include <cstdint>
#include <vector>

#include "cudnn_graph.hpp"
#include "perfgate/cuda/traffic_model.hpp"

namespace perfgate::cuda::sdpa_layout {

enum Uid : std::int64_t {
  q_uid = 1,
  k_uid,
  v_uid,
  o_uid,
  stats_uid,
  scale_uid,
  do_uid,
  dq_uid,
  dk_uid,
  dv_uid,
  mask_value_uid,  // composite graph: the score a causal mask writes
  diagonal_uid,    // composite graph: Skv - Sq, where the causal diagonal starts
  first_virtual_uid = 100
};

struct View {
  std::vector<std::int64_t> dims, strides;
};

inline View q_like(const AttentionShape& s) {
  return {{s.batch, s.heads, s.seq_q, s.head_dim},
          {s.seq_q * s.heads * s.head_dim, s.head_dim, s.heads * s.head_dim, 1}};
}
inline View kv_like(const AttentionShape& s) {
  return {{s.batch, s.kv_heads, s.seq_kv, s.head_dim},
          {s.seq_kv * s.kv_heads * s.head_dim, s.head_dim, s.kv_heads * s.head_dim, 1}};
}
// K viewed as K^T: [B, Hkv, D, Skv] over the same storage.
inline View k_transposed(const AttentionShape& s) {
  return {{s.batch, s.kv_heads, s.head_dim, s.seq_kv},
          {s.seq_kv * s.kv_heads * s.head_dim, s.head_dim, 1, s.kv_heads * s.head_dim}};
}
// Per-row softmax statistics (log-sum-exp), fp32 [B, H, Sq, 1].
inline View row_stats(const AttentionShape& s) {
  return {{s.batch, s.heads, s.seq_q, 1}, {s.heads * s.seq_q, s.seq_q, 1, 1}};
}
// Scores and probabilities [B, H, Sq, Skv], packed.
inline View scores(const AttentionShape& s) {
  return {{s.batch, s.heads, s.seq_q, s.seq_kv},
          {s.heads * s.seq_q * s.seq_kv, s.seq_q * s.seq_kv, s.seq_kv, 1}};
}
inline View scalar() {
  return {{1, 1, 1, 1}, {1, 1, 1, 1}};
}

inline cudnn_graph::TensorSpec spec(std::int64_t uid, cudnnDataType_t type, const View& view) {
  return {uid, type, view.dims, view.strides};
}
// A scalar passed from the host in the variant pack.
inline cudnn_graph::TensorSpec scalar_spec(std::int64_t uid, cudnnDataType_t type) {
  cudnn_graph::TensorSpec t = spec(uid, type, scalar());
  t.by_value = true;
  return t;
}

}  // namespace perfgate::cuda::sdpa_layout

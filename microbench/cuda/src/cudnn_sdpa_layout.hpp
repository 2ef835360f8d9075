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
  mask_value_uid,   // composite graphs: the score a causal mask writes
  diagonal_uid,     // composite graphs: Skv - Sq, where the causal diagonal starts
  one_uid,          // composite backward: 1.0, which makes softmax_sum a stored tensor
  softmax_sum_uid,  // composite backward workspace: rowsum(dO * O), fp32 [B, H, Sq, 1]
  dq_accum_uid,     // composite backward workspace: dQ accumulated in fp32 [B, H, Sq, D]
  seq_len_q_uid,    // packed batches: each sequence's query length, int32 [B, 1, 1, 1]
  seq_len_kv_uid,   // packed batches: each sequence's key length
  q_offsets_uid,    // packed batches: where each sequence starts in Q, O, dO, dQ (elements)
  kv_offsets_uid,   // packed batches: where each sequence starts in K, V, dK, dV (elements)
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
// K (or V) viewed transposed: [B, Hkv, D, Skv] over the same storage.
inline View kv_transposed(const AttentionShape& s) {
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
// Scores viewed transposed, [B, H, Skv, Sq] over the packed scores.
inline View scores_transposed(const AttentionShape& s) {
  return {{s.batch, s.heads, s.seq_kv, s.seq_q},
          {s.heads * s.seq_q * s.seq_kv, s.seq_q * s.seq_kv, 1, s.seq_kv}};
}
// A Q-shaped fp32 tensor of its own, packed [B, H, Sq, D].
inline View packed_q(const AttentionShape& s) {
  return {{s.batch, s.heads, s.seq_q, s.head_dim},
          {s.heads * s.seq_q * s.head_dim, s.seq_q * s.head_dim, s.head_dim, 1}};
}
// dK or dV before the sum over a group of query heads: [B, H, Skv, D], packed.
inline View kv_per_query_head(const AttentionShape& s) {
  return {{s.batch, s.heads, s.seq_kv, s.head_dim},
          {s.heads * s.seq_kv * s.head_dim, s.seq_kv * s.head_dim, s.head_dim, 1}};
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

#pragma once
// What a packed variable-length batch adds to cuDNN's attention graphs, as cuDNN's frontend
// describes it: the per-sequence lengths ([B, 1, 1, 1] int32, for the padding mask and the
// matmuls' size overrides) and the ragged offsets ([B + 1, 1, 1, 1], in elements) that every
// Q-like (Q, O, dO, dQ) and K-like (K, V, dK, dV) tensor carries instead of a batch stride.
#include "cudnn_graph.hpp"
#include "cudnn_sdpa_layout.hpp"
#include "perfgate/cuda/traffic_model.hpp"

namespace perfgate::cuda::sdpa_packing {

// The ragged offsets' type: int64 from cuDNN 9.6 (what its frontend passes), int32 before.
cudnnDataType_t offset_type();

enum class Rows { none, q, kv };  // which sequence length a matmul dimension runs over

class Packing {
 public:
  // Describes the four tensors in g when `packed`; a uniform batch adds nothing.
  Packing(cudnn_graph::Graph& g, const AttentionShape& s, bool packed);
  bool packed() const { return q_offsets_ != nullptr; }
  // A stored tensor of Q's rows (Q, O, dO, dQ) or of K's (K, V, dK, dV), ragged when packed.
  cudnn_graph::TensorSpec q_rows(std::int64_t uid, cudnnDataType_t type,
                                 const sdpa_layout::View& view) const;
  cudnn_graph::TensorSpec kv_rows(std::int64_t uid, cudnnDataType_t type,
                                  const sdpa_layout::View& view) const;
  // C[M, N] = A[M, K] B[K, N] narrowed to each sequence's lengths (nothing when uniform).
  cudnn_graph::MatmulOverrides sizes(Rows m, Rows n, Rows k) const;
  cudnnBackendDescriptor_t seq_len_q() const { return seq_len_q_; }
  cudnnBackendDescriptor_t seq_len_kv() const { return seq_len_kv_; }

 private:
  cudnnBackendDescriptor_t length(Rows r) const;
  cudnnBackendDescriptor_t seq_len_q_ = nullptr, seq_len_kv_ = nullptr;
  cudnnBackendDescriptor_t q_offsets_ = nullptr, kv_offsets_ = nullptr;
};

}  // namespace perfgate::cuda::sdpa_packing

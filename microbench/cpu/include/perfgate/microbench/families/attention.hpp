#pragma once
// Attention forward: O = softmax(Q Kᵀ / √D [+ causal mask]) V, packed variable-length layout.
#include <cstdint>
#include <utility>
#include <vector>

#include "perfgate/microbench/families/common.hpp"

namespace perfgate::microbench {

// Axes: b (sequences), h (query heads), hkv (key/value heads, divides h: grouped-query),
// sq, sk (query/key lengths; with varlen=1 the per-sequence lengths are drawn in
// [len/2, len] and sk = sq), d (head dim), causal (bottom-right aligned mask), varlen, dtype.
// Layout: Q, O [total_q, h, d]; K, V [total_k, hkv, d]; sequence i holds rows
// cu_q[i]..cu_q[i+1] (the cumulative sequence offsets of packed variable-length batches).
struct AttentionProblem : Problem {
  std::size_t h = 0, hkv = 0, d = 0;
  bool causal = false;
  DType dtype = DType::f32;
  std::vector<std::size_t> cu_q, cu_k;  // b + 1 offsets
  std::vector<float> q, k, v;
  AttentionProblem(const CaseParams& p, Rng& rng);
  std::size_t total_q() const { return cu_q.back(); }
  float scale() const;
  std::vector<double> reference() const override;
  DType output_dtype() const override { return dtype; }
};

// Attention backward (the reference path): given dO, the gradients dQ | dK | dV (concatenated,
// in the layouts of Q, K, V); the KV gradients sum over the query heads of a group.
struct AttentionBackwardProblem : AttentionProblem {
  std::vector<float> dout;  // [total_q, h, d]
  AttentionBackwardProblem(const CaseParams& p, Rng& rng);
  std::vector<double> reference() const override;
};

// Cumulative query/key offsets of the b sequences (varlen lengths from a fixed seed).
std::pair<std::vector<std::size_t>, std::vector<std::size_t>> attention_offsets(
    const CaseParams& p);

// FLOPs: 4·D per kept score, per head and sequence: 4·Sq·Sk·D, or causal (bottom-right
// aligned) 4·D·(Sq·Sk − Sq(Sq−1)/2) for Sq ≤ Sk, the count of the CUDA traffic model. With
// Sq = Sk that is 2·D·Sq(Sq+1), FlashAttention's halved 2·D·Sq² plus the diagonal.
// Bytes: Q, K, V read and O written once.
Workload attention_workload(const CaseParams& p);

}  // namespace perfgate::microbench

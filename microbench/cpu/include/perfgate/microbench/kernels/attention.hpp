#pragma once
// The CPU attention kernels shared by the attention families and the step proxy: one sequence,
// all heads, FlashAttention-style (scores never leave a small tile; the backward pass recomputes
// the probabilities from the forward pass's log-sum-exp instead of storing them).
#include <algorithm>
#include <cstddef>

namespace perfgate::microbench::kernels {

// Token-major rows: element (token t, head hd, channel c) is at data[t·stride + hd·head_dim + c].
// A stride larger than heads·head_dim addresses Q, K or V inside a packed QKV buffer.
struct ConstRows {
  const float* data = nullptr;
  std::size_t stride = 0;
};
struct Rows {
  float* data = nullptr;
  std::size_t stride = 0;
};

struct AttentionShape {
  std::size_t heads = 0, kv_heads = 0, head_dim = 0;  // kv_heads divides heads (grouped-query)
  std::size_t lq = 0, lk = 0;                         // query and key rows of this sequence
  bool causal = false;                                // bottom-right aligned mask
  float scale = 1.0f;
};

// Keys visible to query row `i`: all lk, or with the bottom-right aligned causal mask
// i + 1 + lk − lq clamped to [0, lk] (with lq > lk the first lq − lk rows see no key). Signed:
// lk − lq is negative then.
inline std::size_t visible_keys(bool causal, std::size_t i, std::size_t lq, std::size_t lk) {
  if (!causal) return lk;
  const auto last = static_cast<std::ptrdiff_t>(i) + 1 + static_cast<std::ptrdiff_t>(lk) -
                    static_cast<std::ptrdiff_t>(lq);
  return static_cast<std::size_t>(
      std::clamp<std::ptrdiff_t>(last, 0, static_cast<std::ptrdiff_t>(lk)));
}

// O = softmax(scale·Q Kᵀ [masked]) V. `lse`, when given, receives heads·lq log-sum-exps
// (index head·lq + i): what the backward pass needs to recompute the probabilities.
void attention_forward_blocked(const AttentionShape& s, ConstRows q, ConstRows k, ConstRows v,
                               Rows o, float* lse = nullptr);

// dQ, dK, dV from dO, given the forward's O and lse. Accumulates into dq, dk, dv (zero them
// first): the key/value gradients of a group sum over its query heads.
void attention_backward_blocked(const AttentionShape& s, ConstRows q, ConstRows k, ConstRows v,
                                ConstRows o, ConstRows dout, const float* lse, Rows dq, Rows dk,
                                Rows dv);

}  // namespace perfgate::microbench::kernels

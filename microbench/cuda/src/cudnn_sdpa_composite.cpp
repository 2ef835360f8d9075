#include "cudnn_sdpa_composite.hpp"

#include <map>

#include "cudnn_sdpa_layout.hpp"
#include "cudnn_sdpa_packing.hpp"

namespace perfgate::cuda::sdpa_composite {
namespace {

using cudnn_graph::TensorSpec;
namespace layout = sdpa_layout;
using layout::scalar_spec;
using layout::spec;
using Desc = cudnnBackendDescriptor_t;
using sdpa_packing::Rows;
constexpr cudnnDataType_t f32 = CUDNN_DATA_FLOAT;
constexpr cudnnDataType_t i32 = CUDNN_DATA_INT32;

// Appends operations to a graph in order, handing out the ids of its intermediates.
class Builder {
 public:
  Builder(cudnn_graph::Graph& g, const AttentionShape& s, bool packed)
      : g_(g), s_(s), rows_(g, s, packed) {}

  bool packed() const { return rows_.packed(); }
  Desc tensor(std::int64_t uid, cudnnDataType_t type, const layout::View& view) {
    return g_.tensor(spec(uid, type, view));
  }
  // Stored tensors of Q's rows (Q, O, dO, dQ) and of K's (K, V, dK, dV): ragged when packed.
  Desc q_tensor(std::int64_t uid, cudnnDataType_t type, const layout::View& view) {
    return g_.tensor(rows_.q_rows(uid, type, view));
  }
  Desc kv_tensor(std::int64_t uid, cudnnDataType_t type, const layout::View& view) {
    return g_.tensor(rows_.kv_rows(uid, type, view));
  }
  // A by-value scalar: one tensor per uid however many operations read it.
  Desc scalar(std::int64_t uid, cudnnDataType_t type) {
    const auto [it, added] = scalars_.try_emplace(uid, nullptr);
    if (added) it->second = g_.tensor(scalar_spec(uid, type));
    return it->second;
  }
  Desc intermediate(cudnnDataType_t type, const layout::View& view) {
    return g_.tensor(as_virtual(spec(next_id_++, type, view)));
  }
  // An intermediate laid out like K (a reshaped view of it): ragged like K when packed.
  Desc kv_intermediate(cudnnDataType_t type, const layout::View& view) {
    return g_.tensor(as_virtual(rows_.kv_rows(next_id_++, type, view)));
  }

  Desc pointwise(cudnnPointwiseMode_t mode, cudnnDataType_t math, Desc x, Desc b, Desc y) {
    ops_.push_back(g_.pointwise(mode, math, x, b, nullptr, y));
    return y;
  }
  Desc unary(cudnnPointwiseMode_t mode, Desc x, Desc y) {
    return pointwise(mode, f32, x, nullptr, y);
  }
  // C[M, N] = A[M, K] B[K, N]; m, n, k name the sequence each dimension runs over (a packed
  // batch narrows those to each sequence's length).
  Desc matmul(Desc a, Desc b, Desc c, Rows m, Rows n, Rows k) {
    ops_.push_back(g_.matmul(a, b, c, rows_.sizes(m, n, k)));
    return c;
  }
  Desc reduce(cudnnReduceTensorOp_t op, Desc x, Desc y) {
    ops_.push_back(g_.reduction(op, x, y));
    return y;
  }
  // The same values under other dimensions and strides (a transposed view).
  Desc reshape(Desc x, Desc y) {
    ops_.push_back(g_.operation(
        CUDNN_BACKEND_OPERATION_RESHAPE_DESCRIPTOR,
        {{CUDNN_ATTR_OPERATION_RESHAPE_XDESC, x}, {CUDNN_ATTR_OPERATION_RESHAPE_YDESC, y}}));
    return y;
  }

  // Scores outside the causal band (key > query + Skv - Sq) replaced by the mask value.
  Desc causal_mask(Desc scores) {
    Desc row = index(scores, 2);
    const Desc col = index(scores, 3);
    if (s_.seq_kv != s_.seq_q)  // bottom-right alignment: the last query sees the last key
      row = pointwise(CUDNN_POINTWISE_ADD, i32, row, scalar(layout::diagonal_uid, i32),
                      intermediate(i32, layout::scores(s_)));
    return select(scores, compare(CUDNN_POINTWISE_CMP_GE, row, col));
  }

  // A packed batch's padding mask: scores of rows or columns past their sequence's length
  // replaced by the mask value (cuDNN's frontend pattern: row < seq_len_q and col < seq_len_kv).
  Desc padding_mask(Desc scores) {
    const Desc rows_in = compare(CUDNN_POINTWISE_CMP_LT, index(scores, 2), rows_.seq_len_q());
    const Desc cols_in = compare(CUDNN_POINTWISE_CMP_LT, index(scores, 3), rows_.seq_len_kv());
    return select(scores, compare(CUDNN_POINTWISE_LOGICAL_AND, rows_in, cols_in));
  }

  std::vector<Desc> operations() const { return ops_; }

 private:
  static TensorSpec as_virtual(TensorSpec t) {
    t.is_virtual = true;
    return t;
  }
  Desc index(Desc scores, std::int64_t axis) {
    const Desc y = intermediate(i32, layout::scores(s_));
    ops_.push_back(g_.pointwise(CUDNN_POINTWISE_GEN_INDEX, i32, scores, nullptr, nullptr, y, axis));
    return y;
  }
  Desc compare(cudnnPointwiseMode_t mode, Desc a, Desc b) {
    return pointwise(mode, CUDNN_DATA_BOOLEAN, a, b,
                     intermediate(CUDNN_DATA_BOOLEAN, layout::scores(s_)));
  }
  // Scores where `keep` is false replaced by the mask value.
  Desc select(Desc scores, Desc keep) {
    const Desc masked = intermediate(f32, layout::scores(s_));
    ops_.push_back(g_.pointwise(CUDNN_POINTWISE_BINARY_SELECT, f32, scores,
                                scalar(layout::mask_value_uid, f32), keep, masked));
    return masked;
  }

  cudnn_graph::Graph& g_;
  const AttentionShape& s_;
  sdpa_packing::Packing rows_;
  std::vector<Desc> ops_;
  std::map<std::int64_t, Desc> scalars_;
  std::int64_t next_id_ = layout::first_virtual_uid;
};

}  // namespace

std::vector<cudnnBackendDescriptor_t> describe_forward(cudnn_graph::Graph& g,
                                                       const AttentionShape& s, cudnnDataType_t io,
                                                       bool packed) {
  Builder b(g, s, packed);
  const layout::View scores = layout::scores(s), rows = layout::row_stats(s);
  const Desc q = b.q_tensor(layout::q_uid, io, layout::q_like(s));
  const Desc k_t = b.kv_tensor(layout::k_uid, io, layout::kv_transposed(s));
  const Desc v = b.kv_tensor(layout::v_uid, io, layout::kv_like(s));
  const Desc o = b.q_tensor(layout::o_uid, io, layout::q_like(s));
  const Desc stats = b.tensor(layout::stats_uid, f32, rows);

  Desc x = b.matmul(q, k_t, b.intermediate(f32, scores), Rows::q, Rows::kv, Rows::none);
  x = b.pointwise(CUDNN_POINTWISE_MUL, f32, x, b.scalar(layout::scale_uid, f32),
                  b.intermediate(f32, scores));
  if (b.packed()) x = b.padding_mask(x);
  if (s.causal) x = b.causal_mask(x);
  // Softmax in the form whose statistics the backward pass reads: max + log(sum exp(x - max)).
  const Desc row_max = b.reduce(CUDNN_REDUCE_TENSOR_MAX, x, b.intermediate(f32, rows));
  x = b.pointwise(CUDNN_POINTWISE_SUB, f32, x, row_max, b.intermediate(f32, scores));
  const Desc exps = b.unary(CUDNN_POINTWISE_EXP, x, b.intermediate(f32, scores));
  const Desc row_sum = b.reduce(CUDNN_REDUCE_TENSOR_ADD, exps, b.intermediate(f32, rows));
  const Desc log_sum = b.unary(CUDNN_POINTWISE_LOG, row_sum, b.intermediate(f32, rows));
  b.pointwise(CUDNN_POINTWISE_ADD, f32, row_max, log_sum, stats);
  // P in the I/O type: cuDNN's engines take the second matmul's A operand in it (its frontend
  // sets P's type from Q's for that reason).
  const Desc p = b.pointwise(CUDNN_POINTWISE_DIV, f32, exps, row_sum, b.intermediate(io, scores));
  b.matmul(p, v, o, Rows::q, Rows::none, Rows::kv);
  return b.operations();
}

std::vector<cudnnBackendDescriptor_t> describe_backward(cudnn_graph::Graph& g,
                                                        const AttentionShape& s, cudnnDataType_t io,
                                                        bool packed) {
  Builder b(g, s, packed);
  const layout::View scores = layout::scores(s), rows = layout::row_stats(s);
  const Desc q = b.q_tensor(layout::q_uid, io, layout::q_like(s));
  const Desc k_t = b.kv_tensor(layout::k_uid, io, layout::kv_transposed(s));
  const Desc k = b.reshape(k_t, b.kv_intermediate(io, layout::kv_like(s)));  // one tensor per id
  const Desc v_t = b.kv_tensor(layout::v_uid, io, layout::kv_transposed(s));
  const Desc o = b.q_tensor(layout::o_uid, io, layout::q_like(s));
  const Desc d_o = b.q_tensor(layout::do_uid, io, layout::q_like(s));
  const Desc stats = b.tensor(layout::stats_uid, f32, rows);
  const Desc scale = b.scalar(layout::scale_uid, f32);

  // softmax_sum = rowsum(dO * O): the term every dS row subtracts; kept in a workspace tensor.
  Desc x = b.pointwise(CUDNN_POINTWISE_MUL, f32, d_o, o, b.intermediate(f32, layout::packed_q(s)));
  x = b.reduce(CUDNN_REDUCE_TENSOR_ADD, x, b.intermediate(f32, rows));
  const Desc softmax_sum = b.pointwise(CUDNN_POINTWISE_MUL, f32, x, b.scalar(layout::one_uid, f32),
                                       b.tensor(layout::softmax_sum_uid, f32, rows));

  // P recomputed from the forward statistics: exp(scale * QK^T - stats).
  x = b.matmul(q, k_t, b.intermediate(f32, scores), Rows::q, Rows::kv, Rows::none);
  x = b.pointwise(CUDNN_POINTWISE_MUL, f32, x, scale, b.intermediate(f32, scores));
  if (b.packed()) x = b.padding_mask(x);
  x = b.pointwise(CUDNN_POINTWISE_SUB, f32, x, stats, b.intermediate(f32, scores));
  // cuDNN 9.0-9.9 lost the padding value across the subtraction; its frontend masks again.
  if (b.packed() && cudnnGetVersion() < 91000) x = b.padding_mask(x);
  if (s.causal) x = b.causal_mask(x);
  const Desc p = b.unary(CUDNN_POINTWISE_EXP, x, b.intermediate(f32, scores));

  // dK or dV = a·b per query head; with grouped heads, summed over each K/V head's group.
  // Both run over the keys (M) and sum over the queries (K).
  auto kv_gradient = [&](Desc a, Desc bm, std::int64_t uid) {
    const Desc out = b.kv_tensor(uid, io, layout::kv_like(s));
    if (s.heads == s.kv_heads) return b.matmul(a, bm, out, Rows::kv, Rows::none, Rows::q);
    const Desc per_head = b.matmul(a, bm, b.intermediate(io, layout::kv_per_query_head(s)),
                                   Rows::kv, Rows::none, Rows::q);
    return b.reduce(CUDNN_REDUCE_TENSOR_ADD, per_head, out);
  };

  // dV = P^T dO.
  const Desc p_t = b.reshape(p, b.intermediate(io, layout::scores_transposed(s)));
  kv_gradient(p_t, d_o, layout::dv_uid);

  // dS = P * (dO V^T - softmax_sum) * scale.
  x = b.matmul(d_o, v_t, b.intermediate(f32, scores), Rows::q, Rows::kv, Rows::none);
  x = b.pointwise(CUDNN_POINTWISE_SUB, f32, x, softmax_sum, b.intermediate(f32, scores));
  x = b.pointwise(CUDNN_POINTWISE_MUL, f32, x, p, b.intermediate(f32, scores));
  const Desc d_s = b.pointwise(CUDNN_POINTWISE_MUL, f32, x, scale, b.intermediate(f32, scores));

  // dK = dS^T Q.
  const Desc d_s_t = b.reshape(d_s, b.intermediate(io, layout::scores_transposed(s)));
  kv_gradient(d_s_t, q, layout::dk_uid);

  // dQ = dS K, accumulated in fp32 (a workspace tensor), then stored.
  const Desc dq_accum = b.matmul(d_s, k, b.tensor(layout::dq_accum_uid, f32, layout::packed_q(s)),
                                 Rows::q, Rows::none, Rows::kv);
  b.unary(CUDNN_POINTWISE_IDENTITY, dq_accum, b.q_tensor(layout::dq_uid, io, layout::q_like(s)));
  return b.operations();
}

}  // namespace perfgate::cuda::sdpa_composite

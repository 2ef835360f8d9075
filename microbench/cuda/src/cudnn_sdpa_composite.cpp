#include "cudnn_sdpa_composite.hpp"

#include "cudnn_sdpa_layout.hpp"

namespace perfgate::cuda::sdpa_composite {
namespace {

using cudnn_graph::TensorSpec;
namespace layout = sdpa_layout;
using layout::scalar_spec;
using layout::spec;

// Hands out the unique ids of the graph's intermediates.
class VirtualIds {
 public:
  std::int64_t next() { return id_++; }

 private:
  std::int64_t id_ = layout::first_virtual_uid;
};

TensorSpec virtual_spec(VirtualIds& ids, cudnnDataType_t type, const layout::View& view) {
  TensorSpec t = spec(ids.next(), type, view);
  t.is_virtual = true;
  return t;
}

}  // namespace

std::vector<cudnnBackendDescriptor_t> describe_forward(cudnn_graph::Graph& g,
                                                       const AttentionShape& s, cudnnDataType_t io,
                                                       Probabilities probabilities) {
  constexpr cudnnDataType_t f32 = CUDNN_DATA_FLOAT;
  VirtualIds ids;
  const layout::View scores = layout::scores(s), rows = layout::row_stats(s);
  std::vector<cudnnBackendDescriptor_t> ops;
  auto virtual_tensor = [&](cudnnDataType_t type, const layout::View& view) {
    return g.tensor(virtual_spec(ids, type, view));
  };
  auto pointwise = [&](cudnnPointwiseMode_t mode, cudnnDataType_t math, cudnnBackendDescriptor_t x,
                       cudnnBackendDescriptor_t b, cudnnBackendDescriptor_t t,
                       cudnnBackendDescriptor_t y, std::int64_t axis = -1) {
    ops.push_back(g.pointwise(mode, math, x, b, t, y, axis));
    return y;
  };

  const auto q = g.tensor(spec(layout::q_uid, io, layout::q_like(s)));
  const auto k_t = g.tensor(spec(layout::k_uid, io, layout::k_transposed(s)));
  const auto v = g.tensor(spec(layout::v_uid, io, layout::kv_like(s)));
  const auto o = g.tensor(spec(layout::o_uid, io, layout::q_like(s)));
  const auto stats = g.tensor(spec(layout::stats_uid, f32, rows));
  const auto scale = g.tensor(scalar_spec(layout::scale_uid, f32));

  const auto raw = virtual_tensor(f32, scores);
  ops.push_back(g.matmul(q, k_t, raw));
  auto scaled =
      pointwise(CUDNN_POINTWISE_MUL, f32, raw, scale, nullptr, virtual_tensor(f32, scores));
  if (s.causal) {
    constexpr cudnnDataType_t i32 = CUDNN_DATA_INT32;
    auto row = pointwise(CUDNN_POINTWISE_GEN_INDEX, i32, scaled, nullptr, nullptr,
                         virtual_tensor(i32, scores), 2);
    const auto col = pointwise(CUDNN_POINTWISE_GEN_INDEX, i32, scaled, nullptr, nullptr,
                               virtual_tensor(i32, scores), 3);
    if (s.seq_kv != s.seq_q) {  // bottom-right alignment: the last query sees the last key
      const auto diagonal = g.tensor(scalar_spec(layout::diagonal_uid, i32));
      row =
          pointwise(CUDNN_POINTWISE_ADD, i32, row, diagonal, nullptr, virtual_tensor(i32, scores));
    }
    const auto visible = pointwise(CUDNN_POINTWISE_CMP_GE, CUDNN_DATA_BOOLEAN, row, col, nullptr,
                                   virtual_tensor(CUDNN_DATA_BOOLEAN, scores));
    const auto mask_value = g.tensor(scalar_spec(layout::mask_value_uid, f32));
    scaled = pointwise(CUDNN_POINTWISE_BINARY_SELECT, f32, scaled, mask_value, visible,
                       virtual_tensor(f32, scores));
  }
  // Softmax in the form whose statistics the backward pass reads: max + log(sum exp(x - max)).
  const auto row_max = virtual_tensor(f32, rows);
  ops.push_back(g.reduction(CUDNN_REDUCE_TENSOR_MAX, scaled, row_max));
  const auto shifted =
      pointwise(CUDNN_POINTWISE_SUB, f32, scaled, row_max, nullptr, virtual_tensor(f32, scores));
  const auto exps =
      pointwise(CUDNN_POINTWISE_EXP, f32, shifted, nullptr, nullptr, virtual_tensor(f32, scores));
  const auto row_sum = virtual_tensor(f32, rows);
  ops.push_back(g.reduction(CUDNN_REDUCE_TENSOR_ADD, exps, row_sum));
  const auto log_sum =
      pointwise(CUDNN_POINTWISE_LOG, f32, row_sum, nullptr, nullptr, virtual_tensor(f32, rows));
  pointwise(CUDNN_POINTWISE_ADD, f32, row_max, log_sum, nullptr, stats);
  TensorSpec p_spec = virtual_spec(ids, f32, scores);
  p_spec.reordered = probabilities == Probabilities::reordered;
  const auto p = pointwise(CUDNN_POINTWISE_DIV, f32, exps, row_sum, nullptr, g.tensor(p_spec));
  ops.push_back(g.matmul(p, v, o));
  return ops;
}

}  // namespace perfgate::cuda::sdpa_composite

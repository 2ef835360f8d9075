// cuDNN validates every tensor and operation descriptor as it is finalized, without a GPU: these
// tests describe the attention graphs on the build machine, so a wrong attribute, type or shape
// fails here rather than on the first GPU run. Building a plan needs a GPU and is not tested here.
#include <catch2/catch.hpp>

#include <algorithm>

#include "cudnn_graph.hpp"
#include "cudnn_sdpa_composite.hpp"
#include "cudnn_sdpa_layout.hpp"
#include "cudnn_sdpa_operation.hpp"
#include "perfgate/core/error.hpp"
#include "perfgate/cuda/check.hpp"

using namespace perfgate::cuda;

namespace {

AttentionShape shape(std::int64_t heads, std::int64_t kv_heads, std::int64_t seq_q,
                     std::int64_t seq_kv, bool causal) {
  return {2, heads, kv_heads, seq_q, seq_kv, 128, causal};
}

}  // namespace

TEST_CASE("the composite attention graph is accepted op by op, with the mask only when causal") {
  struct Case {
    AttentionShape s;
    std::size_t operations;
  };
  // matmul, scale, max, subtract, exp, sum, log, add (statistics), divide, matmul = 10;
  // a causal mask adds two index generators, a comparison and a select; unequal lengths an add.
  const Case cases[] = {{shape(16, 16, 1024, 1024, false), 10},
                        {shape(16, 4, 1024, 1024, false), 10},
                        {shape(16, 4, 1024, 1024, true), 14},
                        {shape(8, 8, 256, 1024, true), 15}};
  for (const auto& c : cases) {
    for (const cudnnDataType_t io : {CUDNN_DATA_BFLOAT16, CUDNN_DATA_HALF}) {
      INFO("heads " << c.s.heads << "/" << c.s.kv_heads << " seq " << c.s.seq_q << "x" << c.s.seq_kv
                    << " causal " << c.s.causal);
      cudnn_graph::Graph g;
      std::vector<cudnnBackendDescriptor_t> ops;
      REQUIRE_NOTHROW(ops = sdpa_composite::describe_forward(g, c.s, io));
      CHECK(ops.size() == c.operations);
    }
  }
}

TEST_CASE("the composite backward graph is accepted op by op, causal or not") {
  // rowsum(dO*O), its stored copy; K's reshape; QK^T, scale, minus stats, exp; P^T reshape, dV;
  // dO V^T, minus softmax_sum, times P, times scale; dS^T reshape, dK; dS K, identity = 18.
  // Grouped K/V heads add a reduction over each group for dV and for dK.
  const std::pair<AttentionShape, std::size_t> cases[] = {{shape(16, 16, 1024, 1024, false), 18},
                                                          {shape(16, 16, 1024, 1024, true), 22},
                                                          {shape(8, 8, 256, 1024, true), 23},
                                                          {shape(16, 4, 1024, 1024, false), 20},
                                                          {shape(16, 4, 1024, 1024, true), 24}};
  for (const auto& [s, operations] : cases) {
    for (const cudnnDataType_t io : {CUDNN_DATA_BFLOAT16, CUDNN_DATA_HALF}) {
      INFO("seq " << s.seq_q << "x" << s.seq_kv << " causal " << s.causal);
      cudnn_graph::Graph g;
      std::vector<cudnnBackendDescriptor_t> ops;
      REQUIRE_NOTHROW(ops = sdpa_composite::describe_backward(g, s, io));
      CHECK(ops.size() == operations);
    }
  }
}

TEST_CASE("the SDPA operation descriptors are accepted with perfgate's layout") {
  for (const auto d : {sdpa_operation::Direction::forward, sdpa_operation::Direction::backward}) {
    cudnn_graph::Graph g;
    try {
      CHECK(sdpa_operation::describe(g, shape(16, 4, 512, 512, false), CUDNN_DATA_BFLOAT16, d) !=
            nullptr);
    } catch (const Unsupported& e) {
      WARN("this cuDNN has no such operation: " << e.what());
    }
  }
}

TEST_CASE("a malformed operation is refused when it is described, naming the cuDNN call") {
  cudnn_graph::Graph g;
  auto tensor = [&](std::int64_t uid, std::vector<std::int64_t> dims) {
    std::vector<std::int64_t> strides(dims.size(), 1);
    for (std::size_t i = dims.size() - 1; i-- > 0;) strides[i] = strides[i + 1] * dims[i + 1];
    return g.tensor({uid, CUDNN_DATA_FLOAT, dims, strides});
  };
  // [4 x 8] times [16 x 4]: the inner dimensions disagree.
  const auto a = tensor(1, {1, 1, 4, 8}), b = tensor(2, {1, 1, 16, 4}), c = tensor(3, {1, 1, 4, 4});
  CHECK_THROWS_AS(g.matmul(a, b, c), perfgate::ToolError);
  CHECK_THROWS_WITH(g.matmul(a, b, c), Catch::Contains("cudnnBackendFinalize"));
}

TEST_CASE("packed batches: ragged Q/K/V/O, per-sequence matmul sizes and the padding mask") {
  // The padding mask: two index generators, two length comparisons, their AND, a select = 6.
  // cuDNN before 9.10 needs it again after the statistics are subtracted (backward).
  const std::size_t padding = 6;
  const std::size_t backward_padding = cudnnGetVersion() < 91000 ? 2 * padding : padding;
  const std::pair<AttentionShape, std::size_t> forward[] = {
      {shape(16, 16, 1024, 1024, false), 10 + padding},
      {shape(16, 4, 1024, 1024, true), 14 + padding}};
  for (const auto& [s, operations] : forward) {
    INFO("forward, heads " << s.heads << "/" << s.kv_heads << " causal " << s.causal);
    cudnn_graph::Graph g;
    std::vector<cudnnBackendDescriptor_t> ops;
    REQUIRE_NOTHROW(ops = sdpa_composite::describe_forward(g, s, CUDNN_DATA_BFLOAT16, true));
    CHECK(ops.size() == operations);
  }
  const std::pair<AttentionShape, std::size_t> backward[] = {
      {shape(16, 16, 1024, 1024, false), 18 + backward_padding},
      {shape(16, 16, 1024, 1024, true), 22 + backward_padding},
      {shape(16, 4, 1024, 1024, true), 24 + backward_padding}};
  for (const auto& [s, operations] : backward) {
    INFO("backward, heads " << s.heads << "/" << s.kv_heads << " causal " << s.causal);
    cudnn_graph::Graph g;
    std::vector<cudnnBackendDescriptor_t> ops;
    REQUIRE_NOTHROW(ops = sdpa_composite::describe_backward(g, s, CUDNN_DATA_HALF, true));
    CHECK(ops.size() == operations);
  }
  for (const auto d : {sdpa_operation::Direction::forward, sdpa_operation::Direction::backward}) {
    cudnn_graph::Graph g;
    try {
      CHECK(sdpa_operation::describe(g, shape(16, 4, 512, 512, false), CUDNN_DATA_BFLOAT16, d,
                                     true) != nullptr);
    } catch (const Unsupported& e) {
      WARN("this cuDNN has no such operation: " << e.what());
    }
  }
}

TEST_CASE("a ragged offset must be an integer tensor") {
  cudnn_graph::Graph g;
  const auto offsets = g.tensor({1, CUDNN_DATA_FLOAT, {3, 1, 1, 1}, {1, 1, 1, 1}});
  cudnn_graph::TensorSpec q{2, CUDNN_DATA_BFLOAT16, {2, 4, 64, 64}, {64 * 4 * 64, 64, 4 * 64, 1}};
  q.ragged_offset = offsets;
  CHECK_THROWS_AS(g.tensor(q), perfgate::ToolError);
  q.uid = 3;
  q.ragged_offset = g.tensor({4, CUDNN_DATA_INT64, {3, 1, 1, 1}, {1, 1, 1, 1}});
  CHECK_NOTHROW(g.tensor(q));
}

TEST_CASE("a uid names one tensor of a graph") {
  cudnn_graph::Graph g;
  const cudnn_graph::TensorSpec scalar{7, CUDNN_DATA_FLOAT, {1, 1, 1, 1}, {1, 1, 1, 1}};
  REQUIRE_NOTHROW(g.tensor(scalar));
  CHECK_THROWS_WITH(g.tensor(scalar), Catch::Contains("uid 7 declared twice"));
  CHECK(g.stored_uids() == std::vector<std::int64_t>{7});
}

// Every stored tensor a graph declares needs an address when it runs: the caller's (Q, K, V, O,
// stats and, backward, dO, dQ, dK, dV) or the plan's own (scalars, workspaces, the packing).
TEST_CASE("the attention graphs declare exactly the tensors their plans supply") {
  namespace l = sdpa_layout;
  auto stored = [](auto describe) {
    cudnn_graph::Graph g;
    describe(g);
    auto uids = g.stored_uids();
    std::sort(uids.begin(), uids.end());
    return uids;
  };
  const std::vector<std::int64_t> io{l::q_uid, l::k_uid,     l::v_uid,
                                     l::o_uid, l::stats_uid, l::scale_uid};
  auto with = [&](std::vector<std::int64_t> extra) {
    extra.insert(extra.end(), io.begin(), io.end());
    std::sort(extra.begin(), extra.end());
    return extra;
  };
  const std::vector<std::int64_t> packing{l::seq_len_q_uid, l::seq_len_kv_uid, l::q_offsets_uid,
                                          l::kv_offsets_uid};
  const auto bf16 = CUDNN_DATA_BFLOAT16;
  CHECK(stored([&](auto& g) {
          sdpa_composite::describe_forward(g, shape(16, 4, 1024, 1024, false), bf16);
        }) == with({}));
  CHECK(stored([&](auto& g) {
          sdpa_composite::describe_forward(g, shape(8, 8, 256, 1024, true), bf16);
        }) == with({l::mask_value_uid, l::diagonal_uid}));
  // A packed batch masks its padding even without a causal mask: the mask value is declared.
  std::vector<std::int64_t> packed_forward = packing;
  packed_forward.push_back(l::mask_value_uid);
  CHECK(stored([&](auto& g) {
          sdpa_composite::describe_forward(g, shape(16, 16, 1024, 1024, false), bf16, true);
        }) == with(packed_forward));
  CHECK(stored([&](auto& g) {
          sdpa_composite::describe_forward(g, shape(16, 16, 1024, 1024, true), bf16, true);
        }) == with(packed_forward));
  const std::vector<std::int64_t> backward{
      l::do_uid, l::dq_uid, l::dk_uid, l::dv_uid, l::one_uid, l::softmax_sum_uid, l::dq_accum_uid};
  CHECK(stored([&](auto& g) {
          sdpa_composite::describe_backward(g, shape(16, 4, 1024, 1024, false), bf16);
        }) == with(backward));
  std::vector<std::int64_t> packed_backward = backward;
  packed_backward.insert(packed_backward.end(), packed_forward.begin(), packed_forward.end());
  CHECK(stored([&](auto& g) {
          sdpa_composite::describe_backward(g, shape(16, 4, 1024, 1024, true), bf16, true);
        }) == with(packed_backward));
}

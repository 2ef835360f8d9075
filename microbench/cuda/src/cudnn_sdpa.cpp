// cuDNN SDPA through the cuDNN 9 backend API: the SDPA_FWD / SDPA_BWD operation where the loaded
// cuDNN has it (the backward one arrived in 9.17), else, and always for causal masks (which that
// operation has no attribute for), the composite graphs of cudnn_sdpa_composite.
#include <cudnn.h>

#include <cmath>
#include <memory>
#include <vector>

#include "cudnn_graph.hpp"
#include "cudnn_sdpa_composite.hpp"
#include "cudnn_sdpa_layout.hpp"
#include "cudnn_sdpa_operation.hpp"
#include "perfgate/cuda/attention.hpp"
#include "perfgate/cuda/check.hpp"

namespace perfgate::cuda {
namespace {

namespace layout = sdpa_layout;

sdpa_operation::Direction operation_direction(CudnnSdpa::Direction d) {
  return d == CudnnSdpa::Direction::forward ? sdpa_operation::Direction::forward
                                            : sdpa_operation::Direction::backward;
}

}  // namespace

struct CudnnSdpa::Plan {
  std::unique_ptr<cudnn_graph::Graph> graph;
  sdpa_composite::Scalars scalars;
  bool composite = false;
  bool causal = false;
  std::string path;
  DeviceBuffer<float> softmax_sum, dq_accum;  // the composite backward's workspace tensors

  // The ids the built graph declares beyond the caller's tensors, with their addresses.
  void append_own(std::vector<std::int64_t>& uids, std::vector<void*>& pointers) {
    auto add = [&](std::int64_t uid, void* p) {
      uids.push_back(uid);
      pointers.push_back(p);
    };
    add(layout::scale_uid, &scalars.scale);
    if (composite && causal) {
      add(layout::mask_value_uid, &scalars.mask_value);
      if (scalars.diagonal != 0) add(layout::diagonal_uid, &scalars.diagonal);
    }
    if (softmax_sum.get() != nullptr) {
      add(layout::one_uid, &scalars.one);
      add(layout::softmax_sum_uid, softmax_sum.get());
      add(layout::dq_accum_uid, dq_accum.get());
    }
  }
};

std::string CudnnSdpa::version() {
  const std::size_t v = cudnnGetVersion();  // major*10000 + minor*100 + patch since cuDNN 9
  return std::to_string(v / 10000) + "." + std::to_string((v / 100) % 100) + "." +
         std::to_string(v % 100);
}

CudnnSdpa::CudnnSdpa(AttentionShape s, Precision p, Direction d)
    : plan_(std::make_unique<Plan>()), shape_(s), direction_(d) {
  validate(s);
  if (p != Precision::bf16 && p != Precision::f16)
    throw InputError("cuDNN SDPA: precision must be bf16 or f16");
  if (s.causal && s.seq_q > s.seq_kv)
    throw Unsupported("cuDNN SDPA: a causal mask with more queries than keys leaves rows empty");
  Plan& g = *plan_;
  g.causal = s.causal;
  g.scalars.scale = float(1.0 / std::sqrt(double(s.head_dim)));
  g.scalars.diagonal = std::int32_t(s.seq_kv - s.seq_q);
  const cudnnDataType_t io = p == Precision::bf16 ? CUDNN_DATA_BFLOAT16 : CUDNN_DATA_HALF;

  // The SDPA operation where the loaded cuDNN has it (it has no causal mask attribute).
  std::string refused;
  if (!s.causal) {
    try {
      g.graph = std::make_unique<cudnn_graph::Graph>();
      const auto op = sdpa_operation::describe(*g.graph, s, io, operation_direction(d));
      if (g.graph->build_plan({op}, &refused)) {
        g.path = "SDPA operation";
        return;
      }
      refused = "SDPA operation: " + refused;
    } catch (const Unsupported& e) {
      refused = e.what();
    }
  }
  // The composite graph: forward first with P as plain fp32, then in the reordered layout.
  g.composite = true;
  using sdpa_composite::Probabilities;
  const std::vector<Probabilities> variants =
      d == Direction::forward ? std::vector{Probabilities::plain, Probabilities::reordered}
                              : std::vector{Probabilities::plain};
  for (const auto probabilities : variants) {
    g.graph = std::make_unique<cudnn_graph::Graph>();
    const auto ops = d == Direction::forward
                         ? sdpa_composite::describe_forward(*g.graph, s, io, probabilities)
                         : sdpa_composite::describe_backward(*g.graph, s, io);
    std::string why;
    if (g.graph->build_plan(ops, &why)) {
      g.path = probabilities == Probabilities::plain ? "composite graph"
                                                     : "composite graph (F16x16 probabilities)";
      if (d == Direction::backward) {
        g.softmax_sum = DeviceBuffer<float>(std::size_t(s.batch * s.heads * s.seq_q));
        g.dq_accum = DeviceBuffer<float>(std::size_t(s.batch * s.heads * s.seq_q * s.head_dim));
      }
      return;
    }
    refused += (refused.empty() ? "" : "; ") + std::string("composite graph: ") + why;
  }
  throw ToolError("cuDNN " + version() + " SDPA " +
                  (d == Direction::forward ? "forward" : "backward") +
                  (s.causal ? " (causal)" : "") + ": no plan: " + refused);
}

CudnnSdpa::~CudnnSdpa() = default;

const std::string& CudnnSdpa::path() const {
  return plan_->path;
}

bool CudnnSdpa::composite() const {
  return plan_->composite;
}

void CudnnSdpa::forward(const void* q, const void* k, const void* v, void* o, float* stats,
                        cudaStream_t s) {
  if (direction_ != Direction::forward) throw ToolError("cuDNN SDPA: this plan is a backward plan");
  if (stats == nullptr)
    throw InputError("cuDNN SDPA: forward needs a stats buffer of B*H*Sq floats");
  std::vector<std::int64_t> uids{layout::q_uid, layout::k_uid, layout::v_uid, layout::o_uid,
                                 layout::stats_uid};
  std::vector<void*> pointers{const_cast<void*>(q), const_cast<void*>(k), const_cast<void*>(v), o,
                              stats};
  plan_->append_own(uids, pointers);
  plan_->graph->execute(uids, pointers, s);
}

void CudnnSdpa::backward(const void* q, const void* k, const void* v, const void* o,
                         const void* d_o, const float* stats, void* dq, void* dk, void* dv,
                         cudaStream_t s) {
  if (direction_ != Direction::backward) throw ToolError("cuDNN SDPA: this plan is a forward plan");
  std::vector<std::int64_t> uids{layout::q_uid,  layout::k_uid,  layout::v_uid,
                                 layout::o_uid,  layout::do_uid, layout::stats_uid,
                                 layout::dq_uid, layout::dk_uid, layout::dv_uid};
  std::vector<void*> pointers{const_cast<void*>(q),
                              const_cast<void*>(k),
                              const_cast<void*>(v),
                              const_cast<void*>(o),
                              const_cast<void*>(d_o),
                              const_cast<float*>(stats),
                              dq,
                              dk,
                              dv};
  plan_->append_own(uids, pointers);
  // Before cuDNN 9.6 the fused backward accumulated dQ into a workspace it did not clear itself.
  if (plan_->dq_accum.get() != nullptr && cudnnGetVersion() < 90600)
    PERFGATE_CUDA_CHECK(cudaMemsetAsync(plan_->dq_accum.get(), 0, plan_->dq_accum.bytes(), s));
  plan_->graph->execute(uids, pointers, s);
}

}  // namespace perfgate::cuda

// cuDNN SDPA through the cuDNN 9 backend API. The forward pass uses the SDPA_FWD operation where
// the loaded cuDNN has it, else (and always for causal masks, which that operation lacks) the
// composite graph of cudnn_sdpa_composite; the backward pass uses the SDPA_BWD operation.
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
  std::string path;

  // The by-value scalars the built graph declares, with their host addresses.
  void append_scalars(std::vector<std::int64_t>& uids, std::vector<void*>& pointers, bool causal) {
    uids.push_back(layout::scale_uid);
    pointers.push_back(&scalars.scale);
    if (composite && causal) {
      uids.push_back(layout::mask_value_uid);
      pointers.push_back(&scalars.mask_value);
      if (scalars.diagonal != 0) {
        uids.push_back(layout::diagonal_uid);
        pointers.push_back(&scalars.diagonal);
      }
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
  if (s.causal && d == Direction::backward)
    throw Unsupported("cuDNN SDPA: the backward SDPA operation has no causal mask");
  if (s.causal && s.seq_q > s.seq_kv)
    throw Unsupported("cuDNN SDPA: a causal mask with more queries than keys leaves rows empty");
  Plan& g = *plan_;
  g.scalars.scale = float(1.0 / std::sqrt(double(s.head_dim)));
  g.scalars.diagonal = std::int32_t(s.seq_kv - s.seq_q);
  const cudnnDataType_t io = p == Precision::bf16 ? CUDNN_DATA_BFLOAT16 : CUDNN_DATA_HALF;

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
      if (d == Direction::backward) throw;
      refused = e.what();
    }
    if (d == Direction::backward)
      throw ToolError("cuDNN " + version() + " SDPA backward: " + refused);
  }
  // The composite graph, first with P as plain fp32, then in the reordered layout.
  g.composite = true;
  for (const auto probabilities :
       {sdpa_composite::Probabilities::plain, sdpa_composite::Probabilities::reordered}) {
    g.graph = std::make_unique<cudnn_graph::Graph>();
    std::string why;
    if (g.graph->build_plan(sdpa_composite::describe_forward(*g.graph, s, io, probabilities),
                            &why)) {
      g.path = probabilities == sdpa_composite::Probabilities::plain
                   ? "composite graph"
                   : "composite graph (F16x16 probabilities)";
      return;
    }
    refused += (refused.empty() ? "" : "; ") + std::string("composite graph: ") + why;
  }
  throw ToolError("cuDNN " + version() + " SDPA forward" + (s.causal ? " (causal)" : "") +
                  ": no plan: " + refused);
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
  plan_->append_scalars(uids, pointers, shape_.causal);
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
  plan_->append_scalars(uids, pointers, false);
  plan_->graph->execute(uids, pointers, s);
}

}  // namespace perfgate::cuda

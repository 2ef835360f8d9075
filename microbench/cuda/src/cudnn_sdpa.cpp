// cuDNN SDPA through the cuDNN 9 backend API: the SDPA_FWD / SDPA_BWD operation where the loaded
// cuDNN has it (the backward one arrived in 9.17), else, and always for causal masks (which that
// operation has no attribute for), the composite graphs of cudnn_sdpa_composite. Packed
// variable-length batches add cudnn_sdpa_packing's lengths and ragged offsets to either.
#include <cudnn.h>

#include <cmath>
#include <memory>
#include <vector>

#include "cudnn_graph.hpp"
#include "cudnn_sdpa_composite.hpp"
#include "cudnn_sdpa_layout.hpp"
#include "cudnn_sdpa_operation.hpp"
#include "cudnn_sdpa_packing.hpp"
#include "perfgate/cuda/attention.hpp"
#include "perfgate/cuda/check.hpp"

namespace perfgate::cuda {
namespace {

namespace layout = sdpa_layout;

sdpa_operation::Direction operation_direction(CudnnSdpa::Direction d) {
  return d == CudnnSdpa::Direction::forward ? sdpa_operation::Direction::forward
                                            : sdpa_operation::Direction::backward;
}

// The packed batch's tensors on the device: lengths (int32) and ragged offsets in elements,
// in the type the graph declared for them.
struct DevicePacking {
  DeviceBuffer<std::int32_t> seq_len_q, seq_len_kv;
  DeviceBuffer<unsigned char> q_offsets, kv_offsets;

  DevicePacking() = default;
  DevicePacking(const PackedSequences& packed, const AttentionShape& s)
      : seq_len_q(sequence_lengths(packed.cu_q)),
        seq_len_kv(sequence_lengths(packed.cu_kv)),
        q_offsets(offsets(element_offsets(packed.cu_q, s.heads * s.head_dim))),
        kv_offsets(offsets(element_offsets(packed.cu_kv, s.kv_heads * s.head_dim))) {}

 private:
  template <class Offset>
  static std::vector<unsigned char> as_bytes(const std::vector<Offset>& values) {
    const auto* p = reinterpret_cast<const unsigned char*>(values.data());
    return {p, p + values.size() * sizeof(Offset)};
  }
  static std::vector<unsigned char> offsets(const std::vector<std::int64_t>& values) {
    if (sdpa_packing::offset_type() == CUDNN_DATA_INT64) return as_bytes(values);
    return as_bytes(std::vector<std::int32_t>(values.begin(), values.end()));
  }
};

// A causal mask on a packed batch is the top-left one: every sequence must have as many keys as
// queries (bottom-right alignment per sequence would need each one's own diagonal).
void require_square_sequences(const PackedSequences& packed, const AttentionShape& s) {
  if (packed.cu_q != packed.cu_kv || s.seq_q != s.seq_kv)
    throw Unsupported(
        "cuDNN SDPA: a causal mask on packed sequences needs equal query and key lengths in "
        "every sequence");
}

// cuDNN's engines took ragged offsets on Hopper only before 9.18.1 (its frontend's rule).
void require_ragged_support() {
  if (cudnnGetVersion() >= 91801) return;
  int device = 0, major = 0;
  PERFGATE_CUDA_CHECK(cudaGetDevice(&device));
  PERFGATE_CUDA_CHECK(cudaDeviceGetAttribute(&major, cudaDevAttrComputeCapabilityMajor, device));
  if (major < 9)
    throw Unsupported("cuDNN " + CudnnSdpa::version() +
                      " SDPA: packed sequences (ragged offsets) need sm_90 or cuDNN 9.18.1");
}

}  // namespace

struct CudnnSdpa::Plan {
  std::unique_ptr<cudnn_graph::Graph> graph;
  sdpa_composite::Scalars scalars;
  bool composite = false;
  bool causal = false;
  std::string path;
  DeviceBuffer<float> softmax_sum, dq_accum;  // the composite backward's workspace tensors
  DevicePacking packing;                      // empty for a uniform batch

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
    if (packing.seq_len_q.get() != nullptr) {
      add(layout::seq_len_q_uid, packing.seq_len_q.get());
      add(layout::seq_len_kv_uid, packing.seq_len_kv.get());
      add(layout::q_offsets_uid, packing.q_offsets.get());
      add(layout::kv_offsets_uid, packing.kv_offsets.get());
    }
  }
};

std::string CudnnSdpa::version() {
  const std::size_t v = cudnnGetVersion();  // major*10000 + minor*100 + patch since cuDNN 9
  return std::to_string(v / 10000) + "." + std::to_string((v / 100) % 100) + "." +
         std::to_string(v % 100);
}

CudnnSdpa::CudnnSdpa(AttentionShape s, Precision p, Direction d, const PackedSequences& packed)
    : plan_(std::make_unique<Plan>()), shape_(s), direction_(d) {
  validate(s);
  const bool is_packed = !packed.empty();
  if (is_packed) validate(packed, s);
  if (p != Precision::bf16 && p != Precision::f16)
    throw InputError("cuDNN SDPA: precision must be bf16 or f16");
  if (s.causal && s.seq_q > s.seq_kv)
    throw Unsupported("cuDNN SDPA: a causal mask with more queries than keys leaves rows empty");
  if (s.causal && is_packed) require_square_sequences(packed, s);
  if (is_packed) require_ragged_support();
  Plan& g = *plan_;
  if (is_packed) g.packing = DevicePacking(packed, s);  // whichever graph is built reads it
  const std::string packed_suffix = is_packed ? " (packed)" : "";
  g.causal = s.causal;
  g.scalars.scale = float(1.0 / std::sqrt(double(s.head_dim)));
  g.scalars.diagonal = std::int32_t(s.seq_kv - s.seq_q);
  const cudnnDataType_t io = p == Precision::bf16 ? CUDNN_DATA_BFLOAT16 : CUDNN_DATA_HALF;

  // The SDPA operation where the loaded cuDNN has it (it has no causal mask attribute).
  std::string refused;
  if (!s.causal) {
    try {
      g.graph = std::make_unique<cudnn_graph::Graph>();
      const auto op = sdpa_operation::describe(*g.graph, s, io, operation_direction(d), is_packed);
      if (g.graph->build_plan({op}, &refused)) {
        g.path = "SDPA operation" + packed_suffix;
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
    const auto ops =
        d == Direction::forward
            ? sdpa_composite::describe_forward(*g.graph, s, io, probabilities, is_packed)
            : sdpa_composite::describe_backward(*g.graph, s, io, is_packed);
    std::string why;
    if (g.graph->build_plan(ops, &why)) {
      g.path = (probabilities == Probabilities::plain ? "composite graph"
                                                      : "composite graph (F16x16 probabilities)") +
               packed_suffix;
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
                  (s.causal ? " (causal)" : "") + packed_suffix + ": no plan: " + refused);
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

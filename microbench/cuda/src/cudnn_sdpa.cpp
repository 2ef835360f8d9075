// cuDNN SDPA through the cuDNN 9 backend API: the SDPA_FWD / SDPA_BWD operation from the releases
// where cuDNN's frontend uses it, else, and always for causal masks (which that operation has no
// attribute for), the composite graphs of cudnn_sdpa_composite. Packed variable-length batches
// add cudnn_sdpa_packing's lengths and ragged offsets to either.
#include <cudnn.h>

#include <algorithm>
#include <cmath>
#include <limits>
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
    if (!values.empty() && values.back() > std::numeric_limits<std::int32_t>::max())
      throw Unsupported("cuDNN " + CudnnSdpa::version() +
                        " SDPA: a packed batch of more than 2^31 elements needs int64 ragged "
                        "offsets (cuDNN 9.6)");
    return as_bytes(std::vector<std::int32_t>(values.begin(), values.end()));
  }
};

// A causal mask on a packed batch is the top-left one here: every sequence must have as many
// keys as queries. (cuDNN's frontend aligns it bottom-right per sequence with the SEQ_LEN
// tensors; perfgate's packed cases never need that.)
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

// The cases cuDNN's frontend refuses on some releases, refused here the same way.
void require_supported_release(const AttentionShape& s, CudnnSdpa::Direction d, bool packed) {
  const std::size_t v = cudnnGetVersion();
  const std::string release = "cuDNN " + CudnnSdpa::version() + " SDPA: ";
  const bool backward = d == CudnnSdpa::Direction::backward;
  if (v == 91000 || v == 91001)
    throw Unsupported(release + "fp16/bf16 attention has known bugs in 9.10.0 and 9.10.1");
  if (s.causal && s.seq_q != s.seq_kv && v < 90600 && (s.seq_q % 64 != 0 || s.seq_kv % 64 != 0))
    throw Unsupported(release +
                      "a bottom-right causal mask needs sequence lengths that are "
                      "multiples of 64 before 9.6");
  if (backward && packed && s.heads != s.kv_heads && v < 90600)
    throw Unsupported(release + "the backward of grouped K/V heads on packed sequences needs 9.6");
  if (backward && s.seq_q == 1 && s.seq_kv == 1)
    throw Unsupported(release + "no backward for one query and one key");
  // The frontend pads such a backward with a full-length padding mask on these releases.
  if (backward && !packed && s.seq_kv % 128 != 0 && v <= 91500)
    throw Unsupported(release +
                      "the backward needs a key length that is a multiple of 128 "
                      "before 9.15.1");
}

// The first release whose engines serve the SDPA operation, as cuDNN's frontend gates it: the
// forward from 9.13.1 (per-sequence lengths from 9.15), the backward once the heuristics propose
// its engine (9.27; packed 9.28). Before those the composite graph is built directly.
std::size_t sdpa_operation_since(CudnnSdpa::Direction d, bool packed) {
  if (d == CudnnSdpa::Direction::forward) return packed ? 91500 : 91301;
  return packed ? 92800 : 92700;
}

// The tensors forward() and backward() pass, in the order they pass them.
std::vector<std::int64_t> caller_uids(CudnnSdpa::Direction d) {
  if (d == CudnnSdpa::Direction::forward)
    return {layout::q_uid, layout::k_uid, layout::v_uid, layout::o_uid, layout::stats_uid};
  return {layout::q_uid,     layout::k_uid,  layout::v_uid,  layout::o_uid, layout::do_uid,
          layout::stats_uid, layout::dq_uid, layout::dk_uid, layout::dv_uid};
}

}  // namespace

struct CudnnSdpa::Plan {
  std::unique_ptr<cudnn_graph::Graph> graph;
  sdpa_composite::Scalars scalars;
  bool composite = false;
  std::string path;
  DeviceBuffer<float> softmax_sum, dq_accum;  // the composite backward's workspace tensors
  DevicePacking packing;                      // empty for a uniform batch

  // The address of a tensor the plan itself supplies (scalars, workspaces, the packing), or
  // null for one it does not know.
  void* own_address(std::int64_t uid) {
    switch (uid) {
      case layout::scale_uid:
        return &scalars.scale;
      case layout::mask_value_uid:
        return &scalars.mask_value;
      case layout::diagonal_uid:
        return &scalars.diagonal;
      case layout::one_uid:
        return &scalars.one;
      case layout::softmax_sum_uid:
        return softmax_sum.get();
      case layout::dq_accum_uid:
        return dq_accum.get();
      case layout::seq_len_q_uid:
        return packing.seq_len_q.get();
      case layout::seq_len_kv_uid:
        return packing.seq_len_kv.get();
      case layout::q_offsets_uid:
        return packing.q_offsets.get();
      case layout::kv_offsets_uid:
        return packing.kv_offsets.get();
      default:
        return nullptr;
    }
  }

  // Every stored tensor of the built graph with its address: the caller's in the order of
  // caller_uids, then the plan's own (bound once here, so none can be forgotten and no launch
  // searches for them).
  std::vector<std::int64_t> uids;
  std::vector<void*> own_pointers;
  void bind(CudnnSdpa::Direction d) {
    const std::vector<std::int64_t> callers = caller_uids(d);
    uids = callers;
    for (const std::int64_t uid : graph->stored_uids()) {
      if (std::find(callers.begin(), callers.end(), uid) != callers.end()) continue;
      void* p = own_address(uid);
      if (p == nullptr)
        throw ToolError("cuDNN SDPA (" + path + "): nothing supplies tensor uid " +
                        std::to_string(uid));
      uids.push_back(uid);
      own_pointers.push_back(p);
    }
  }
  // `pointers`: the caller's tensors in the order of caller_uids.
  void execute(std::vector<void*> pointers, cudaStream_t s) {
    pointers.insert(pointers.end(), own_pointers.begin(), own_pointers.end());
    graph->execute(uids, pointers, s);
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
  require_supported_release(s, d, is_packed);
  Plan& g = *plan_;
  if (is_packed) g.packing = DevicePacking(packed, s);  // whichever graph is built reads it
  const std::string packed_suffix = is_packed ? " (packed)" : "";
  g.scalars.scale = float(1.0 / std::sqrt(double(s.head_dim)));
  g.scalars.diagonal = std::int32_t(s.seq_kv - s.seq_q);
  const cudnnDataType_t io = p == Precision::bf16 ? CUDNN_DATA_BFLOAT16 : CUDNN_DATA_HALF;

  // The SDPA operation from the release that serves it (it has no causal mask attribute). A
  // refusal of any kind, from describing it to every engine configuration, falls through to the
  // composite graph with the reason kept.
  std::string refused;
  if (!s.causal && cudnnGetVersion() >= sdpa_operation_since(d, is_packed)) {
    try {
      g.graph = std::make_unique<cudnn_graph::Graph>();
      const auto op = sdpa_operation::describe(*g.graph, s, io, operation_direction(d), is_packed);
      if (g.graph->build_plan({op}, &refused)) {
        g.path = "SDPA operation" + packed_suffix;
        g.bind(d);
        return;
      }
      refused = "SDPA operation: " + refused;
    } catch (const ToolError& e) {
      refused = std::string("SDPA operation: ") + e.what();
    }
  }
  g.composite = true;
  g.graph = std::make_unique<cudnn_graph::Graph>();
  const auto ops = d == Direction::forward
                       ? sdpa_composite::describe_forward(*g.graph, s, io, is_packed)
                       : sdpa_composite::describe_backward(*g.graph, s, io, is_packed);
  std::string why;
  if (g.graph->build_plan(ops, &why)) {
    g.path = "composite graph" + packed_suffix;
    if (d == Direction::backward) {
      g.softmax_sum = DeviceBuffer<float>(std::size_t(s.batch * s.heads * s.seq_q));
      g.dq_accum = DeviceBuffer<float>(std::size_t(s.batch * s.heads * s.seq_q * s.head_dim));
    }
    g.bind(d);
    return;
  }
  refused += (refused.empty() ? "" : "; ") + std::string("composite graph: ") + why;
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
  plan_->execute({const_cast<void*>(q), const_cast<void*>(k), const_cast<void*>(v), o, stats}, s);
}

void CudnnSdpa::backward(const void* q, const void* k, const void* v, const void* o,
                         const void* d_o, const float* stats, void* dq, void* dk, void* dv,
                         cudaStream_t s) {
  if (direction_ != Direction::backward) throw ToolError("cuDNN SDPA: this plan is a forward plan");
  // Before cuDNN 9.6 the fused backward accumulated dQ into a workspace it did not clear itself.
  if (plan_->dq_accum.get() != nullptr && cudnnGetVersion() < 90600)
    PERFGATE_CUDA_CHECK(cudaMemsetAsync(plan_->dq_accum.get(), 0, plan_->dq_accum.bytes(), s));
  plan_->execute(
      {const_cast<void*>(q), const_cast<void*>(k), const_cast<void*>(v), const_cast<void*>(o),
       const_cast<void*>(d_o), const_cast<float*>(stats), dq, dk, dv},
      s);
}

}  // namespace perfgate::cuda

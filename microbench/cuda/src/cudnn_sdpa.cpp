// cuDNN SDPA through the cuDNN 9 backend API: one SDPA_FWD or SDPA_BWD operation in an
// operation graph, the heuristics' engine configurations tried in order until one finalizes,
// and a variant pack of unique ids -> device pointers per execution.
#include <cudnn.h>

#include <cmath>
#include <vector>

#include "perfgate/cuda/attention.hpp"
#include "perfgate/cuda/check.hpp"

namespace perfgate::cuda {
namespace {

enum Uid : std::int64_t {
  q_uid = 1,
  k_uid,
  v_uid,
  o_uid,
  stats_uid,
  scale_uid,
  do_uid,
  dq_uid,
  dk_uid,
  dv_uid
};

}  // namespace

struct CudnnSdpa::Graph {
  cudnnHandle_t handle = nullptr;
  std::vector<cudnnBackendDescriptor_t> owned;
  cudnnBackendDescriptor_t plan = nullptr;
  DeviceBuffer<unsigned char> workspace;
  float scale = 1.0f;
  bool with_stats = false;

  ~Graph() {
    for (auto it = owned.rbegin(); it != owned.rend(); ++it) cudnnBackendDestroyDescriptor(*it);
    if (handle != nullptr) cudnnDestroy(handle);
  }

  cudnnBackendDescriptor_t create(cudnnBackendDescriptorType_t type) {
    cudnnBackendDescriptor_t d = nullptr;
    PERFGATE_CUDNN_CHECK(cudnnBackendCreateDescriptor(type, &d));
    owned.push_back(d);
    return d;
  }
  static void set(cudnnBackendDescriptor_t d, cudnnBackendAttributeName_t name,
                  cudnnBackendAttributeType_t type, std::int64_t count, const void* value) {
    PERFGATE_CUDNN_CHECK(cudnnBackendSetAttribute(d, name, type, count, value));
  }
  static void link(cudnnBackendDescriptor_t d, cudnnBackendAttributeName_t name,
                   cudnnBackendDescriptor_t value) {
    set(d, name, CUDNN_TYPE_BACKEND_DESCRIPTOR, 1, &value);
  }

  cudnnBackendDescriptor_t tensor(std::int64_t uid, cudnnDataType_t type,
                                  std::vector<std::int64_t> dims, std::vector<std::int64_t> strides,
                                  bool by_value = false) {
    cudnnBackendDescriptor_t d = create(CUDNN_BACKEND_TENSOR_DESCRIPTOR);
    const std::int64_t alignment = 16;
    const bool is_virtual = false;
    set(d, CUDNN_ATTR_TENSOR_UNIQUE_ID, CUDNN_TYPE_INT64, 1, &uid);
    set(d, CUDNN_ATTR_TENSOR_DATA_TYPE, CUDNN_TYPE_DATA_TYPE, 1, &type);
    set(d, CUDNN_ATTR_TENSOR_DIMENSIONS, CUDNN_TYPE_INT64, std::int64_t(dims.size()), dims.data());
    set(d, CUDNN_ATTR_TENSOR_STRIDES, CUDNN_TYPE_INT64, std::int64_t(strides.size()),
        strides.data());
    set(d, CUDNN_ATTR_TENSOR_BYTE_ALIGNMENT, CUDNN_TYPE_INT64, 1, &alignment);
    set(d, CUDNN_ATTR_TENSOR_IS_VIRTUAL, CUDNN_TYPE_BOOLEAN, 1, &is_virtual);
    set(d, CUDNN_ATTR_TENSOR_IS_BY_VALUE, CUDNN_TYPE_BOOLEAN, 1, &by_value);
    PERFGATE_CUDNN_CHECK(cudnnBackendFinalize(d));
    return d;
  }

  // Graph of one operation -> the first engine configuration whose plan finalizes.
  void build_plan(cudnnBackendDescriptor_t operation) {
    cudnnBackendDescriptor_t graph = create(CUDNN_BACKEND_OPERATIONGRAPH_DESCRIPTOR);
    set(graph, CUDNN_ATTR_OPERATIONGRAPH_OPS, CUDNN_TYPE_BACKEND_DESCRIPTOR, 1, &operation);
    set(graph, CUDNN_ATTR_OPERATIONGRAPH_HANDLE, CUDNN_TYPE_HANDLE, 1, &handle);
    PERFGATE_CUDNN_CHECK(cudnnBackendFinalize(graph));
    cudnnBackendDescriptor_t heuristics = create(CUDNN_BACKEND_ENGINEHEUR_DESCRIPTOR);
    const cudnnBackendHeurMode_t mode = CUDNN_HEUR_MODE_A;
    link(heuristics, CUDNN_ATTR_ENGINEHEUR_OPERATION_GRAPH, graph);
    set(heuristics, CUDNN_ATTR_ENGINEHEUR_MODE, CUDNN_TYPE_HEUR_MODE, 1, &mode);
    PERFGATE_CUDNN_CHECK(cudnnBackendFinalize(heuristics));
    std::int64_t count = 0;
    PERFGATE_CUDNN_CHECK(cudnnBackendGetAttribute(heuristics, CUDNN_ATTR_ENGINEHEUR_RESULTS,
                                                  CUDNN_TYPE_BACKEND_DESCRIPTOR, 0, &count,
                                                  nullptr));
    std::vector<cudnnBackendDescriptor_t> configs(static_cast<std::size_t>(count));
    for (auto& c : configs) c = create(CUDNN_BACKEND_ENGINECFG_DESCRIPTOR);
    PERFGATE_CUDNN_CHECK(cudnnBackendGetAttribute(heuristics, CUDNN_ATTR_ENGINEHEUR_RESULTS,
                                                  CUDNN_TYPE_BACKEND_DESCRIPTOR, count, &count,
                                                  configs.data()));
    for (std::int64_t i = 0; i < count && plan == nullptr; ++i) {
      cudnnBackendDescriptor_t candidate = create(CUDNN_BACKEND_EXECUTION_PLAN_DESCRIPTOR);
      link(candidate, CUDNN_ATTR_EXECUTION_PLAN_ENGINE_CONFIG, configs[std::size_t(i)]);
      if (cudnnBackendFinalize(candidate) == CUDNN_STATUS_SUCCESS) plan = candidate;
    }
    if (plan == nullptr)
      throw ToolError("cuDNN SDPA: none of the " + std::to_string(count) +
                      " engine configurations supports this shape on this GPU");
    std::int64_t bytes = 0;
    PERFGATE_CUDNN_CHECK(cudnnBackendGetAttribute(plan, CUDNN_ATTR_EXECUTION_PLAN_WORKSPACE_SIZE,
                                                  CUDNN_TYPE_INT64, 1, nullptr, &bytes));
    workspace = DeviceBuffer<unsigned char>(std::size_t(std::max<std::int64_t>(bytes, 16)));
  }

  void execute(const std::vector<std::int64_t>& uids, const std::vector<void*>& pointers,
               cudaStream_t s) {
    PERFGATE_CUDNN_CHECK(cudnnSetStream(handle, s));
    cudnnBackendDescriptor_t pack = nullptr;
    PERFGATE_CUDNN_CHECK(
        cudnnBackendCreateDescriptor(CUDNN_BACKEND_VARIANT_PACK_DESCRIPTOR, &pack));
    try {
      void* ws = workspace.get();
      set(pack, CUDNN_ATTR_VARIANT_PACK_UNIQUE_IDS, CUDNN_TYPE_INT64, std::int64_t(uids.size()),
          uids.data());
      set(pack, CUDNN_ATTR_VARIANT_PACK_DATA_POINTERS, CUDNN_TYPE_VOID_PTR,
          std::int64_t(pointers.size()), pointers.data());
      set(pack, CUDNN_ATTR_VARIANT_PACK_WORKSPACE, CUDNN_TYPE_VOID_PTR, 1, &ws);
      PERFGATE_CUDNN_CHECK(cudnnBackendFinalize(pack));
      PERFGATE_CUDNN_CHECK(cudnnBackendExecute(handle, plan, pack));
    } catch (...) {
      cudnnBackendDestroyDescriptor(pack);
      throw;
    }
    cudnnBackendDestroyDescriptor(pack);
  }
};

std::string CudnnSdpa::version() {
  const std::size_t v = cudnnGetVersion();  // major*10000 + minor*100 + patch since cuDNN 9
  return std::to_string(v / 10000) + "." + std::to_string((v / 100) % 100) + "." +
         std::to_string(v % 100);
}

CudnnSdpa::CudnnSdpa(AttentionShape s, Precision p, Direction d)
    : graph_(std::make_unique<Graph>()), shape_(s), direction_(d) {
  validate(s);
  if (p != Precision::bf16 && p != Precision::f16)
    throw InputError("cuDNN SDPA: precision must be bf16 or f16");
  if (s.causal)
    throw Unsupported(
        "cuDNN SDPA: causal masks need the SDPA diagonal-band subgraph, absent from the cuDNN " +
        std::string(CUDNN_MAJOR == 9 ? "9.x" : "") + " headers this was built with");
  Graph& g = *graph_;
  PERFGATE_CUDNN_CHECK(cudnnCreate(&g.handle));
  g.scale = float(1.0 / std::sqrt(double(s.head_dim)));
  const cudnnDataType_t io = p == Precision::bf16 ? CUDNN_DATA_BFLOAT16 : CUDNN_DATA_HALF;
  // Logical [B, H, S, D] over the [B, S, H, D] storage.
  auto q_like = [&](std::int64_t uid) {
    return g.tensor(uid, io, {s.batch, s.heads, s.seq_q, s.head_dim},
                    {s.seq_q * s.heads * s.head_dim, s.head_dim, s.heads * s.head_dim, 1});
  };
  auto kv_like = [&](std::int64_t uid) {
    return g.tensor(uid, io, {s.batch, s.kv_heads, s.seq_kv, s.head_dim},
                    {s.seq_kv * s.kv_heads * s.head_dim, s.head_dim, s.kv_heads * s.head_dim, 1});
  };
  auto stats = [&] {
    return g.tensor(stats_uid, CUDNN_DATA_FLOAT, {s.batch, s.heads, s.seq_q, 1},
                    {s.heads * s.seq_q, s.seq_q, 1, 1});
  };
  cudnnBackendDescriptor_t scale =
      g.tensor(scale_uid, CUDNN_DATA_FLOAT, {1, 1, 1, 1}, {1, 1, 1, 1}, true);
  const auto op_type = d == Direction::forward ? CUDNN_BACKEND_OPERATION_SDPA_FWD_DESCRIPTOR
                                               : CUDNN_BACKEND_OPERATION_SDPA_BWD_DESCRIPTOR;
  cudnnBackendDescriptor_t op = nullptr;
  if (const cudnnStatus_t st = cudnnBackendCreateDescriptor(op_type, &op);
      st != CUDNN_STATUS_SUCCESS)
    throw Unsupported("cuDNN " + version() + " has no SDPA " +
                      (d == Direction::forward ? "forward" : "backward") + " backend operation (" +
                      cudnnGetErrorString(st) + ")");
  g.owned.push_back(op);
  if (d == Direction::forward) {
    Graph::link(op, CUDNN_ATTR_OPERATION_SDPA_FWD_QDESC, q_like(q_uid));
    Graph::link(op, CUDNN_ATTR_OPERATION_SDPA_FWD_KDESC, kv_like(k_uid));
    Graph::link(op, CUDNN_ATTR_OPERATION_SDPA_FWD_VDESC, kv_like(v_uid));
    Graph::link(op, CUDNN_ATTR_OPERATION_SDPA_FWD_ODESC, q_like(o_uid));
    Graph::link(op, CUDNN_ATTR_OPERATION_SDPA_FWD_STATSDESC, stats());
    Graph::link(op, CUDNN_ATTR_OPERATION_SDPA_FWD_SCALEDESC, scale);
    g.with_stats = true;
  } else {
    Graph::link(op, CUDNN_ATTR_OPERATION_SDPA_BWD_QDESC, q_like(q_uid));
    Graph::link(op, CUDNN_ATTR_OPERATION_SDPA_BWD_KDESC, kv_like(k_uid));
    Graph::link(op, CUDNN_ATTR_OPERATION_SDPA_BWD_VDESC, kv_like(v_uid));
    Graph::link(op, CUDNN_ATTR_OPERATION_SDPA_BWD_ODESC, q_like(o_uid));
    Graph::link(op, CUDNN_ATTR_OPERATION_SDPA_BWD_DODDESC, q_like(do_uid));
    Graph::link(op, CUDNN_ATTR_OPERATION_SDPA_BWD_STATSDESC, stats());
    Graph::link(op, CUDNN_ATTR_OPERATION_SDPA_BWD_SCALEDESC, scale);
    Graph::link(op, CUDNN_ATTR_OPERATION_SDPA_BWD_DQDESC, q_like(dq_uid));
    Graph::link(op, CUDNN_ATTR_OPERATION_SDPA_BWD_DKDESC, kv_like(dk_uid));
    Graph::link(op, CUDNN_ATTR_OPERATION_SDPA_BWD_DVDESC, kv_like(dv_uid));
  }
  PERFGATE_CUDNN_CHECK(cudnnBackendFinalize(op));
  g.build_plan(op);
}

CudnnSdpa::~CudnnSdpa() = default;

void CudnnSdpa::forward(const void* q, const void* k, const void* v, void* o, float* stats,
                        cudaStream_t s) {
  if (direction_ != Direction::forward) throw ToolError("cuDNN SDPA: this plan is a backward plan");
  if (stats == nullptr)
    throw InputError("cuDNN SDPA: forward needs a stats buffer of B*H*Sq floats");
  graph_->execute(
      {q_uid, k_uid, v_uid, o_uid, stats_uid, scale_uid},
      {const_cast<void*>(q), const_cast<void*>(k), const_cast<void*>(v), o, stats, &graph_->scale},
      s);
}

void CudnnSdpa::backward(const void* q, const void* k, const void* v, const void* o,
                         const void* d_o, const float* stats, void* dq, void* dk, void* dv,
                         cudaStream_t s) {
  if (direction_ != Direction::backward) throw ToolError("cuDNN SDPA: this plan is a forward plan");
  graph_->execute(
      {q_uid, k_uid, v_uid, o_uid, do_uid, stats_uid, scale_uid, dq_uid, dk_uid, dv_uid},
      {const_cast<void*>(q), const_cast<void*>(k), const_cast<void*>(v), const_cast<void*>(o),
       const_cast<void*>(d_o), const_cast<float*>(stats), &graph_->scale, dq, dk, dv},
      s);
}

}  // namespace perfgate::cuda

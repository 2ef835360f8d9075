#include "cudnn_sdpa_operation.hpp"

#include "cudnn_sdpa_layout.hpp"
#include "perfgate/cuda/attention.hpp"
#include "perfgate/cuda/check.hpp"

namespace perfgate::cuda::sdpa_operation {
namespace {

namespace layout = sdpa_layout;
using cudnn_graph::Graph;
using layout::spec;

const char* direction_name(Direction d) {
  return d == Direction::forward ? "forward" : "backward";
}

}  // namespace

cudnnBackendDescriptor_t describe(Graph& g, const AttentionShape& s, cudnnDataType_t io,
                                  Direction d) {
  const auto op_type = d == Direction::forward ? CUDNN_BACKEND_OPERATION_SDPA_FWD_DESCRIPTOR
                                               : CUDNN_BACKEND_OPERATION_SDPA_BWD_DESCRIPTOR;
  cudnnBackendDescriptor_t probe = nullptr;
  if (const cudnnStatus_t st = cudnnBackendCreateDescriptor(op_type, &probe);
      st != CUDNN_STATUS_SUCCESS)
    throw Unsupported("cuDNN " + CudnnSdpa::version() + " has no SDPA " + direction_name(d) +
                      " backend operation (" + cudnnGetErrorString(st) + ")");
  cudnnBackendDestroyDescriptor(probe);
  auto q_like = [&](std::int64_t uid) { return g.tensor(spec(uid, io, layout::q_like(s))); };
  auto kv_like = [&](std::int64_t uid) { return g.tensor(spec(uid, io, layout::kv_like(s))); };
  const auto stats = g.tensor(spec(layout::stats_uid, CUDNN_DATA_FLOAT, layout::row_stats(s)));
  const auto scale = g.tensor(layout::scalar_spec(layout::scale_uid, CUDNN_DATA_FLOAT));
  if (d == Direction::forward)
    return g.operation(op_type, {{CUDNN_ATTR_OPERATION_SDPA_FWD_QDESC, q_like(layout::q_uid)},
                                 {CUDNN_ATTR_OPERATION_SDPA_FWD_KDESC, kv_like(layout::k_uid)},
                                 {CUDNN_ATTR_OPERATION_SDPA_FWD_VDESC, kv_like(layout::v_uid)},
                                 {CUDNN_ATTR_OPERATION_SDPA_FWD_ODESC, q_like(layout::o_uid)},
                                 {CUDNN_ATTR_OPERATION_SDPA_FWD_STATSDESC, stats},
                                 {CUDNN_ATTR_OPERATION_SDPA_FWD_SCALEDESC, scale}});
  return g.operation(op_type, {{CUDNN_ATTR_OPERATION_SDPA_BWD_QDESC, q_like(layout::q_uid)},
                               {CUDNN_ATTR_OPERATION_SDPA_BWD_KDESC, kv_like(layout::k_uid)},
                               {CUDNN_ATTR_OPERATION_SDPA_BWD_VDESC, kv_like(layout::v_uid)},
                               {CUDNN_ATTR_OPERATION_SDPA_BWD_ODESC, q_like(layout::o_uid)},
                               {CUDNN_ATTR_OPERATION_SDPA_BWD_DODDESC, q_like(layout::do_uid)},
                               {CUDNN_ATTR_OPERATION_SDPA_BWD_STATSDESC, stats},
                               {CUDNN_ATTR_OPERATION_SDPA_BWD_SCALEDESC, scale},
                               {CUDNN_ATTR_OPERATION_SDPA_BWD_DQDESC, q_like(layout::dq_uid)},
                               {CUDNN_ATTR_OPERATION_SDPA_BWD_DKDESC, kv_like(layout::dk_uid)},
                               {CUDNN_ATTR_OPERATION_SDPA_BWD_DVDESC, kv_like(layout::dv_uid)}});
}

}  // namespace perfgate::cuda::sdpa_operation

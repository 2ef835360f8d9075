#include "cudnn_sdpa_operation.hpp"

#include "cudnn_sdpa_layout.hpp"
#include "cudnn_sdpa_packing.hpp"
#include "perfgate/cuda/attention.hpp"
#include "perfgate/cuda/check.hpp"

namespace perfgate::cuda::sdpa_operation {
namespace {

namespace layout = sdpa_layout;
using cudnn_graph::Graph;

const char* direction_name(Direction d) {
  return d == Direction::forward ? "forward" : "backward";
}

}  // namespace

cudnnBackendDescriptor_t describe(Graph& g, const AttentionShape& s, cudnnDataType_t io,
                                  Direction d, bool packed) {
  const auto op_type = d == Direction::forward ? CUDNN_BACKEND_OPERATION_SDPA_FWD_DESCRIPTOR
                                               : CUDNN_BACKEND_OPERATION_SDPA_BWD_DESCRIPTOR;
  cudnnBackendDescriptor_t probe = nullptr;
  if (const cudnnStatus_t st = cudnnBackendCreateDescriptor(op_type, &probe);
      st != CUDNN_STATUS_SUCCESS)
    throw Unsupported("cuDNN " + CudnnSdpa::version() + " has no SDPA " + direction_name(d) +
                      " backend operation (" + cudnnGetErrorString(st) + ")");
  cudnnBackendDestroyDescriptor(probe);
  const sdpa_packing::Packing rows(g, s, packed);
  auto q_like = [&](std::int64_t uid) { return g.tensor(rows.q_rows(uid, io, layout::q_like(s))); };
  auto kv_like = [&](std::int64_t uid) {
    return g.tensor(rows.kv_rows(uid, io, layout::kv_like(s)));
  };
  const auto stats =
      g.tensor(layout::spec(layout::stats_uid, CUDNN_DATA_FLOAT, layout::row_stats(s)));
  const auto scale = g.tensor(layout::scalar_spec(layout::scale_uid, CUDNN_DATA_FLOAT));
  if (d == Direction::forward)
    return g.operation(op_type,
                       {{CUDNN_ATTR_OPERATION_SDPA_FWD_QDESC, q_like(layout::q_uid)},
                        {CUDNN_ATTR_OPERATION_SDPA_FWD_KDESC, kv_like(layout::k_uid)},
                        {CUDNN_ATTR_OPERATION_SDPA_FWD_VDESC, kv_like(layout::v_uid)},
                        {CUDNN_ATTR_OPERATION_SDPA_FWD_ODESC, q_like(layout::o_uid)},
                        {CUDNN_ATTR_OPERATION_SDPA_FWD_STATSDESC, stats},
                        {CUDNN_ATTR_OPERATION_SDPA_FWD_SCALEDESC, scale},
                        {CUDNN_ATTR_OPERATION_SDPA_FWD_SEQ_LEN_QDESC, rows.seq_len_q()},
                        {CUDNN_ATTR_OPERATION_SDPA_FWD_SEQ_LEN_KVDESC, rows.seq_len_kv()}});
  return g.operation(op_type, {{CUDNN_ATTR_OPERATION_SDPA_BWD_QDESC, q_like(layout::q_uid)},
                               {CUDNN_ATTR_OPERATION_SDPA_BWD_KDESC, kv_like(layout::k_uid)},
                               {CUDNN_ATTR_OPERATION_SDPA_BWD_VDESC, kv_like(layout::v_uid)},
                               {CUDNN_ATTR_OPERATION_SDPA_BWD_ODESC, q_like(layout::o_uid)},
                               {CUDNN_ATTR_OPERATION_SDPA_BWD_DODDESC, q_like(layout::do_uid)},
                               {CUDNN_ATTR_OPERATION_SDPA_BWD_STATSDESC, stats},
                               {CUDNN_ATTR_OPERATION_SDPA_BWD_SCALEDESC, scale},
                               {CUDNN_ATTR_OPERATION_SDPA_BWD_DQDESC, q_like(layout::dq_uid)},
                               {CUDNN_ATTR_OPERATION_SDPA_BWD_DKDESC, kv_like(layout::dk_uid)},
                               {CUDNN_ATTR_OPERATION_SDPA_BWD_DVDESC, kv_like(layout::dv_uid)},
                               {CUDNN_ATTR_OPERATION_SDPA_BWD_SEQ_LEN_QDESC, rows.seq_len_q()},
                               {CUDNN_ATTR_OPERATION_SDPA_BWD_SEQ_LEN_KVDESC, rows.seq_len_kv()}});
}

}  // namespace perfgate::cuda::sdpa_operation

#pragma once
// cuDNN's SDPA as one backend operation (SDPA_FWD or SDPA_BWD descriptor), non-causal; a packed
// batch adds the per-sequence lengths (the operation's padding mask) and ragged offsets.
#include "cudnn_graph.hpp"
#include "perfgate/cuda/traffic_model.hpp"

namespace perfgate::cuda::sdpa_operation {

enum class Direction { forward, backward };

// Adds the operation and its tensors to g, finalized. Throws cuda::Unsupported when the loaded
// cuDNN has no descriptor of that type.
cudnnBackendDescriptor_t describe(cudnn_graph::Graph& g, const AttentionShape& s,
                                  cudnnDataType_t io, Direction d, bool packed = false);

}  // namespace perfgate::cuda::sdpa_operation

#pragma once
// cuDNN attention as composite operation graphs. Forward: S = scale * Q K^T, an optional causal
// mask (generated row/column indices, row + (Skv - Sq) >= column, masked scores replaced), softmax
// with its log-sum-exp statistics, O = P V. cuDNN's runtime fusion engines compile the whole
// graph into one flash-attention kernel. It needs no SDPA operation descriptor, so it serves
// causal masks (s.causal) and cuDNN releases without that operation. A packed batch (`packed`)
// adds the padding mask before the causal one, ragged offsets on the stored Q/K/V/O-like tensors
// and per-sequence sizes on every matmul (cudnn_sdpa_packing.hpp).
#include <vector>

#include "cudnn_graph.hpp"
#include "perfgate/cuda/traffic_model.hpp"

namespace perfgate::cuda::sdpa_composite {

struct Scalars {
  float scale = 1.0f;
  float mask_value = -1e10f;  // large but finite: exp(mask - max) is 0 without inf - inf
  std::int32_t diagonal = 0;  // Skv - Sq
  float one = 1.0f;
};

// Adds the forward graph's tensors and operations to g (each finalized: cuDNN validates it) and
// returns the operations in order, for g.build_plan.
std::vector<cudnnBackendDescriptor_t> describe_forward(cudnn_graph::Graph& g,
                                                       const AttentionShape& s, cudnnDataType_t io,
                                                       bool packed = false);

// The backward graph, as cuDNN's frontend lowers it: softmax_sum = rowsum(dO * O) into a
// workspace tensor; P = exp(scale * QK^T - stats) (masked when causal); dV = P^T dO;
// dS = P * (dO V^T - softmax_sum) * scale; dK = dS^T Q; dQ = dS K through an fp32 workspace
// tensor. With grouped K/V heads, dK and dV are computed per query head and summed over each
// group by a reduction.
std::vector<cudnnBackendDescriptor_t> describe_backward(cudnn_graph::Graph& g,
                                                        const AttentionShape& s, cudnnDataType_t io,
                                                        bool packed = false);

}  // namespace perfgate::cuda::sdpa_composite

#pragma once
// The one (sq, sk) shape that cuDNN and the flash kernel take for a whole batch, from an
// attention problem of the `attention` or `attention_backward` family.
#include <nlohmann/json.hpp>

#include "perfgate/cuda/attention.hpp"
#include "perfgate/cuda/traffic_model.hpp"
#include "perfgate/microbench/families/attention.hpp"

namespace perfgate::microbench::cuda_backend {

bool is_varlen(const CaseParams& params);

// Declines (CaseUnsupported, naming `label`, e.g. "attention/flash") packed variable-length
// batches and f32 storage: every GPU attention path needs bf16 or f16.
perfgate::cuda::AttentionShape uniform_shape(const AttentionProblem& p, const CaseParams& params,
                                             const std::string& label);

// The notes a cuDNN attention result adds to the device's: which plan ran, on which cuDNN.
void add_cudnn_notes(nlohmann::json& notes, const perfgate::cuda::CudnnSdpa& sdpa);

}  // namespace perfgate::microbench::cuda_backend

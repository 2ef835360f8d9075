#pragma once
// The shapes cuDNN, the unfused baseline and the flash kernel take for an attention problem of
// the `attention` or `attention_backward` family: the batch's bounding shape, and a varlen
// batch's packed offsets.
#include <nlohmann/json.hpp>

#include "perfgate/cuda/attention.hpp"
#include "perfgate/cuda/traffic_model.hpp"
#include "perfgate/microbench/families/attention.hpp"

namespace perfgate::microbench::cuda_backend {

bool is_varlen(const CaseParams& params);

// The batch with its longest query and key lengths (a uniform batch's only ones). Declines
// (CaseUnsupported, naming `label`, e.g. "attention/flash") f32 storage: every GPU attention
// path needs bf16 or f16.
perfgate::cuda::AttentionShape attention_shape(const AttentionProblem& p, const std::string& label);

// A varlen batch's cumulative offsets; empty for a uniform batch.
perfgate::cuda::PackedSequences packed_sequences(const AttentionProblem& p,
                                                 const CaseParams& params);

// Cumulative row offsets as the int32 the flash kernel reads; CaseUnsupported past 2^31 rows.
std::vector<std::int32_t> row_offsets32(const std::vector<std::size_t>& cu,
                                        const std::string& label);

// The notes a cuDNN attention result adds to the device's: which plan ran, on which cuDNN.
void add_cudnn_notes(nlohmann::json& notes, const perfgate::cuda::CudnnSdpa& sdpa);

}  // namespace perfgate::microbench::cuda_backend

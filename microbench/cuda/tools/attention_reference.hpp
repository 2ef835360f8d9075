#pragma once
// Double-precision host references of attention on the device check's uniform layout: Q, O, dO
// [B, Sq, H, D]; K, V [B, Skv, Hkv, D]; softmax scale 1/sqrt(D); causal aligned bottom-right.
#include <cstddef>
#include <vector>

#include "perfgate/cuda/traffic_model.hpp"

namespace perfgate::cuda::check {

std::size_t q_elements(AttentionShape s);
std::size_t kv_elements(AttentionShape s);

struct HostAttention {
  std::vector<float> q, k, v, d_o;
};

std::vector<double> forward_reference(const HostAttention& in, AttentionShape s);
// dQ, dK, dV concatenated, in the layouts of Q, K, V.
std::vector<double> backward_reference(const HostAttention& in, AttentionShape s);

}  // namespace perfgate::cuda::check

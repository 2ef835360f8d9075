#pragma once
// What the uniform and the packed attention cases share: the device tensors of one check or
// timing (Q, K, V, O, the softmax statistics and, for backward cases, dO, dQ, dK, dV) with the
// calls made on them, and the name of a cuDNN row.
#include <cuda_runtime.h>

#include <cstdint>
#include <vector>

#include "attention_reference.hpp"
#include "perfgate/cuda/attention.hpp"
#include "perfgate/cuda/check.hpp"
#include "perfgate/cuda/fused_ops.hpp"
#include "perfgate/cuda/host_data.hpp"

namespace perfgate::cuda::check {

struct AttentionBuffers {
  Precision precision;
  DeviceBuffer<unsigned char> q, k, v, o, d_o, dq, dk, dv;
  DeviceBuffer<float> stats;

  // Counts in elements; the statistics are [B, H, Sq] (Sq the longest sequence when packed).
  AttentionBuffers(std::size_t q_count, std::size_t kv_count, std::size_t stats_count, Precision p,
                   bool backward)
      : precision(p),
        q(q_count * element_bytes(p)),
        k(kv_count * element_bytes(p)),
        v(kv_count * element_bytes(p)),
        o(q_count * element_bytes(p)),
        stats(stats_count) {
    if (backward) {
      d_o = DeviceBuffer<unsigned char>(q.bytes());
      dq = DeviceBuffer<unsigned char>(q.bytes());
      dk = DeviceBuffer<unsigned char>(k.bytes());
      dv = DeviceBuffer<unsigned char>(v.bytes());
    }
  }

  // The checks' inputs (dO only when the host has one).
  void upload(const HostAttention& in) {
    q.upload(to_storage(in.q, precision));
    k.upload(to_storage(in.k, precision));
    v.upload(to_storage(in.v, precision));
    if (!in.d_o.empty()) d_o.upload(to_storage(in.d_o, precision));
  }
  // The timings' inputs: Q, K, V (and dO of a backward case) from seeds seed, seed + 1, ...
  void randomize(std::uint64_t seed, cudaStream_t s) {
    for (auto* buffer : {&q, &k, &v, &d_o})
      if (buffer->get() != nullptr)
        fill_random(precision, buffer->get(), buffer->bytes() / element_bytes(precision), seed++,
                    s);
  }

  void forward(CudnnSdpa& plan, cudaStream_t s) {
    plan.forward(q.get(), k.get(), v.get(), o.get(), stats.get(), s);
  }
  void backward(CudnnSdpa& plan, cudaStream_t s) {
    plan.backward(q.get(), k.get(), v.get(), o.get(), d_o.get(), stats.get(), dq.get(), dk.get(),
                  dv.get(), s);
  }
  // The forward pass, then the backward; dQ | dK | dV once the stream has finished.
  std::vector<float> forward_backward(CudnnSdpa& fwd, CudnnSdpa& bwd, cudaStream_t s) {
    forward(fwd, s);
    backward(bwd, s);
    PERFGATE_CUDA_CHECK(cudaStreamSynchronize(s));
    return gradients();
  }
  // dQ | dK | dV as floats, after the stream has finished.
  std::vector<float> gradients() const {
    std::vector<float> out;
    for (const auto* buffer : {&dq, &dk, &dv}) {
      const auto part = from_storage(buffer->download(), precision);
      out.insert(out.end(), part.begin(), part.end());
    }
    return out;
  }
};

// cuDNN's SDPA operation is "cudnn_sdpa"; the composite graph it falls back to, "cudnn_graph".
inline const char* cudnn_variant(const CudnnSdpa& plan) {
  return plan.composite() ? "cudnn_graph" : "cudnn_sdpa";
}

}  // namespace perfgate::cuda::check

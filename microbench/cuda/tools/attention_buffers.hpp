#pragma once
// The device tensors of one attention check or timing (uniform or packed layout alike): Q, K, V,
// O, the softmax statistics and, for backward cases, dO, dQ, dK, dV; with the calls the cases
// share on them.
#include <cuda_runtime.h>

#include <vector>

#include "perfgate/cuda/attention.hpp"
#include "perfgate/cuda/check.hpp"
#include "perfgate/cuda/host_data.hpp"

namespace perfgate::cuda::check {

struct AttentionBuffers {
  DeviceBuffer<unsigned char> q, k, v, o, d_o, dq, dk, dv;
  DeviceBuffer<float> stats;

  // Counts in elements; the statistics are [B, H, Sq] (Sq the longest sequence when packed).
  AttentionBuffers(std::size_t q_count, std::size_t kv_count, std::size_t stats_count, Precision p,
                   bool backward)
      : q(q_count * element_bytes(p)),
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

  void forward(CudnnSdpa& plan, cudaStream_t s) {
    plan.forward(q.get(), k.get(), v.get(), o.get(), stats.get(), s);
  }
  void backward(CudnnSdpa& plan, cudaStream_t s) {
    plan.backward(q.get(), k.get(), v.get(), o.get(), d_o.get(), stats.get(), dq.get(), dk.get(),
                  dv.get(), s);
  }
  // dQ | dK | dV as floats, after the stream has finished.
  std::vector<float> gradients(Precision p) const {
    std::vector<float> out;
    for (const auto* buffer : {&dq, &dk, &dv}) {
      const auto part = from_storage(buffer->download(), p);
      out.insert(out.end(), part.begin(), part.end());
    }
    return out;
  }
};

}  // namespace perfgate::cuda::check

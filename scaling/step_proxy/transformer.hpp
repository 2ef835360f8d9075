#pragma once
// A stack of transformer layers (attention + MLP) with real forward and backward GEMMs and
// attention — the microbench CPU kernels, so the proxy computes with what the families measure —
// enough to give a data-parallel step its realistic compute and gradient volume.
#include <functional>
#include <vector>

#include "perfgate/microbench/kernels/attention.hpp"

namespace perfgate::step_proxy {

struct Shape {
  int layers = 2, hidden = 64, heads = 4, seq = 32, batch = 2;  // batch: this rank's sequences
  int tokens() const { return batch * seq; }
  int head_dim() const { return hidden / heads; }
  long long params_per_layer() const { return 12LL * hidden * hidden; }  // Wqkv, Wo, W1, W2
  // Model FLOPs of one training step on this rank (forward + backward = 3 × forward).
  double flops_per_step() const;
};

// Times each compute call and adds the microseconds to `compute_us`.
class ComputeClock {
 public:
  template <class F>
  void timed(F&& f) {
    const double start = now_us();
    f();
    compute_us += now_us() - start;
  }
  double compute_us = 0;
  static double now_us();
};

class TransformerStack {
 public:
  explicit TransformerStack(const Shape& s);
  void forward(ComputeClock& clock);
  // Backward from the last layer to the first; `layer_done(l)` runs as soon as layer l's
  // gradients (grads(l)) are final, so their all-reduce can overlap the remaining layers.
  void backward(ComputeClock& clock, const std::function<void(int)>& layer_done);
  float* grads(int layer) {
    return &grads_[static_cast<std::size_t>(layer) * shape_.params_per_layer()];
  }
  // Bytes of every buffer the stack holds: what host_model_bytes() counts before building it.
  std::size_t allocated_bytes() const;

 private:
  struct Acts {
    std::vector<float> x, qkv, lse, attn, y1, h, y;  // lse: attention log-sum-exps
  };
  microbench::kernels::AttentionShape attention_shape() const;
  void attention_forward(Acts& a);
  void attention_backward(Acts& a, const std::vector<float>& d_attn, std::vector<float>& d_qkv);

  Shape shape_;
  std::vector<float> weights_, grads_;
  std::vector<float> dy_, dh_, dy1_, dattn_, dqkv_, dx_;  // backward scratch, allocated once
  std::vector<Acts> acts_;
};

}  // namespace perfgate::step_proxy

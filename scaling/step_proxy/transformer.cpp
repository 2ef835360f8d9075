#include "transformer.hpp"

#include <algorithm>
#include <chrono>
#include <cmath>

#include "perfgate/microbench/kernels/attention.hpp"
#include "perfgate/microbench/kernels/gemm.hpp"

namespace perfgate::step_proxy {

double ComputeClock::now_us() {
  return std::chrono::duration<double, std::micro>(
             std::chrono::steady_clock::now().time_since_epoch())
      .count();
}

double Shape::flops_per_step() const {
  const double t = tokens(), h = hidden;
  const double dense = 24.0 * t * h * h;                         // QKV 6th², Wo 2th², MLP 16th²
  const double attention = 4.0 * batch * seq * double(seq) * h;  // QKᵀ and PV
  return 3.0 * layers * (dense + attention);
}

namespace {

// Weight offsets inside one layer's block of 12h² parameters.
struct Offsets {
  std::size_t qkv, o, w1, w2;
  explicit Offsets(int h) : qkv(0), o(3ULL * h * h), w1(4ULL * h * h), w2(8ULL * h * h) {}
};

namespace k = perfgate::microbench::kernels;

k::MatrixView plain(const float* p, int ld) {
  return {p, static_cast<std::size_t>(ld), false};
}
k::MatrixView trans(const float* p, int ld) {
  return {p, static_cast<std::size_t>(ld), true};
}

void gemm(int m, int n, int kk, float alpha, k::MatrixView a, k::MatrixView b, float beta, float* c,
          int ldc) {
  k::gemm_blocked(static_cast<std::size_t>(m), static_cast<std::size_t>(n),
                  static_cast<std::size_t>(kk), alpha, a, b, beta, c,
                  static_cast<std::size_t>(ldc));
}

}  // namespace

TransformerStack::TransformerStack(const Shape& s)
    : shape_(s),
      weights_(static_cast<std::size_t>(s.layers) * s.params_per_layer()),
      grads_(weights_.size()),
      acts_(s.layers) {
  // Deterministic small weights: never time on zeros.
  for (std::size_t i = 0; i < weights_.size(); ++i)
    weights_[i] = 0.02f * std::sin(0.37f * float(i % 9973));
  const std::size_t t = s.tokens(), h = s.hidden;
  for (Acts& a : acts_) {
    a.x.resize(t * h);
    a.qkv.resize(t * 3 * h);
    a.lse.resize(static_cast<std::size_t>(s.batch) * s.heads * s.seq);
    a.attn.resize(t * h);
    a.y1.resize(t * h);
    a.h.resize(t * 4 * h);
    a.y.resize(t * h);
  }
  dy_.resize(t * h);
  dh_.resize(t * 4 * h);
  dy1_.resize(t * h);
  dattn_.resize(t * h);
  dqkv_.resize(t * 3 * h);
  dx_.resize(t * h);
  for (std::size_t i = 0; i < acts_[0].x.size(); ++i)
    acts_[0].x[i] = std::cos(0.11f * float(i % 997));
}

std::size_t TransformerStack::allocated_bytes() const {
  std::size_t floats = weights_.size() + grads_.size();
  for (const auto* v : {&dy_, &dh_, &dy1_, &dattn_, &dqkv_, &dx_}) floats += v->size();
  for (const Acts& a : acts_)
    for (const auto* v : {&a.x, &a.qkv, &a.lse, &a.attn, &a.y1, &a.h, &a.y}) floats += v->size();
  return floats * sizeof(float);
}

// Packed QKV rows [tokens, 3h]: Q, K and V of head hd at columns hd·d, h + hd·d, 2h + hd·d.
k::AttentionShape TransformerStack::attention_shape() const {
  const auto S = static_cast<std::size_t>(shape_.seq),
             heads = static_cast<std::size_t>(shape_.heads);
  return {heads, heads, static_cast<std::size_t>(shape_.head_dim()), S,
          S,     false, 1.0f / std::sqrt(float(shape_.head_dim()))};
}

void TransformerStack::attention_forward(Acts& a) {
  const std::size_t S = shape_.seq, h = shape_.hidden, ld = 3 * h;
  for (std::size_t b = 0; b < static_cast<std::size_t>(shape_.batch); ++b) {
    const float* qkv = &a.qkv[b * S * ld];
    k::attention_forward_blocked(attention_shape(), {qkv, ld}, {qkv + h, ld}, {qkv + 2 * h, ld},
                                 {&a.attn[b * S * h], h}, &a.lse[b * shape_.heads * S]);
  }
}

void TransformerStack::forward(ComputeClock& clock) {
  const int t = shape_.tokens(), h = shape_.hidden;
  const Offsets off(h);
  for (int l = 0; l < shape_.layers; ++l) {
    Acts& a = acts_[l];
    const float* w = &weights_[static_cast<std::size_t>(l) * shape_.params_per_layer()];
    clock.timed([&] {
      gemm(t, 3 * h, h, 1.0f, plain(a.x.data(), h), plain(w + off.qkv, 3 * h), 0.0f, a.qkv.data(),
           3 * h);
      attention_forward(a);
      gemm(t, h, h, 1.0f, plain(a.attn.data(), h), plain(w + off.o, h), 0.0f, a.y1.data(), h);
      gemm(t, 4 * h, h, 1.0f, plain(a.y1.data(), h), plain(w + off.w1, 4 * h), 0.0f, a.h.data(),
           4 * h);
      for (float& v : a.h) v = std::max(v, 0.0f);  // ReLU
      gemm(t, h, 4 * h, 1.0f, plain(a.h.data(), 4 * h), plain(w + off.w2, h), 0.0f, a.y.data(), h);
      if (l + 1 < shape_.layers) acts_[l + 1].x = a.y;
    });
  }
}

void TransformerStack::attention_backward(Acts& a, const std::vector<float>& d_attn,
                                          std::vector<float>& d_qkv) {
  const std::size_t S = shape_.seq, h = shape_.hidden, ld = 3 * h;
  std::fill(d_qkv.begin(), d_qkv.end(), 0.0f);  // the kernel accumulates
  for (std::size_t b = 0; b < static_cast<std::size_t>(shape_.batch); ++b) {
    const float* qkv = &a.qkv[b * S * ld];
    float* dqkv = &d_qkv[b * S * ld];
    const k::ConstRows o{&a.attn[b * S * h], h}, dout{&d_attn[b * S * h], h};
    k::attention_backward_blocked(attention_shape(), {qkv, ld}, {qkv + h, ld}, {qkv + 2 * h, ld}, o,
                                  dout, &a.lse[b * shape_.heads * S], {dqkv, ld}, {dqkv + h, ld},
                                  {dqkv + 2 * h, ld});
  }
}

void TransformerStack::backward(ComputeClock& clock, const std::function<void(int)>& layer_done) {
  const int t = shape_.tokens(), h = shape_.hidden;
  const Offsets off(h);
  auto &dy = dy_, &dh = dh_, &dy1 = dy1_, &dattn = dattn_, &dqkv = dqkv_, &dx = dx_;
  std::fill(dy.begin(), dy.end(), 1e-3f);  // the loss gradient
  for (int l = shape_.layers - 1; l >= 0; --l) {
    Acts& a = acts_[l];
    const float* w = &weights_[static_cast<std::size_t>(l) * shape_.params_per_layer()];
    float* g = grads(l);
    clock.timed([&] {
      gemm(4 * h, h, t, 1.0f, trans(a.h.data(), 4 * h), plain(dy.data(), h), 0.0f, g + off.w2, h);
      gemm(t, 4 * h, h, 1.0f, plain(dy.data(), h), trans(w + off.w2, h), 0.0f, dh.data(), 4 * h);
      for (std::size_t i = 0; i < dh.size(); ++i) dh[i] = a.h[i] > 0 ? dh[i] : 0.0f;
      gemm(h, 4 * h, t, 1.0f, trans(a.y1.data(), h), plain(dh.data(), 4 * h), 0.0f, g + off.w1,
           4 * h);
      gemm(t, h, 4 * h, 1.0f, plain(dh.data(), 4 * h), trans(w + off.w1, 4 * h), 0.0f, dy1.data(),
           h);
      gemm(h, h, t, 1.0f, trans(a.attn.data(), h), plain(dy1.data(), h), 0.0f, g + off.o, h);
      gemm(t, h, h, 1.0f, plain(dy1.data(), h), trans(w + off.o, h), 0.0f, dattn.data(), h);
      attention_backward(a, dattn, dqkv);
      gemm(h, 3 * h, t, 1.0f, trans(a.x.data(), h), plain(dqkv.data(), 3 * h), 0.0f, g + off.qkv,
           3 * h);
      gemm(t, h, 3 * h, 1.0f, plain(dqkv.data(), 3 * h), trans(w + off.qkv, 3 * h), 0.0f, dx.data(),
           h);
      dy.swap(dx);
    });
    layer_done(l);
  }
}

}  // namespace perfgate::step_proxy

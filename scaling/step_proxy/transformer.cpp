#include "transformer.hpp"

#include <algorithm>
#include <chrono>
#include <cmath>

#include "gemm.hpp"

namespace perfgate::step_proxy {

double ComputeClock::now_us() {
  return std::chrono::duration<double, std::micro>(std::chrono::steady_clock::now().time_since_epoch()).count();
}

double Shape::flops_per_step() const {
  const double t = tokens(), h = hidden;
  const double dense = 24.0 * t * h * h;                    // QKV 6th², Wo 2th², MLP 16th²
  const double attention = 4.0 * batch * seq * double(seq) * h;  // QKᵀ and PV
  return 3.0 * layers * (dense + attention);
}

namespace {

// Weight offsets inside one layer's block of 12h² parameters.
struct Offsets {
  std::size_t qkv, o, w1, w2;
  explicit Offsets(int h) : qkv(0), o(3ULL * h * h), w1(4ULL * h * h), w2(8ULL * h * h) {}
};

Matrix plain(const float* p, int ld) { return {p, ld, false}; }
Matrix trans(const float* p, int ld) { return {p, ld, true}; }

}  // namespace

TransformerStack::TransformerStack(const Shape& s)
    : shape_(s),
      weights_(static_cast<std::size_t>(s.layers) * s.params_per_layer()),
      grads_(weights_.size()),
      acts_(s.layers) {
  // Deterministic small weights: never time on zeros.
  for (std::size_t i = 0; i < weights_.size(); ++i) weights_[i] = 0.02f * std::sin(0.37f * float(i % 9973));
  const std::size_t t = s.tokens(), h = s.hidden;
  for (Acts& a : acts_) {
    a.x.resize(t * h);
    a.qkv.resize(t * 3 * h);
    a.probs.resize(static_cast<std::size_t>(s.batch) * s.heads * s.seq * s.seq);
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
  dp_.resize(static_cast<std::size_t>(s.seq) * s.seq);
  for (std::size_t i = 0; i < acts_[0].x.size(); ++i) acts_[0].x[i] = std::cos(0.11f * float(i % 997));
}

void TransformerStack::attention_forward(Acts& a) {
  const int S = shape_.seq, d = shape_.head_dim(), h = shape_.hidden, ld = 3 * h;
  const float scale = 1.0f / std::sqrt(float(d));
  for (int b = 0; b < shape_.batch; ++b)
    for (int hd = 0; hd < shape_.heads; ++hd) {
      const float* q = &a.qkv[static_cast<std::size_t>(b) * S * ld + hd * d];
      const float* k = q + h;
      const float* v = q + 2 * h;
      float* p = &a.probs[(static_cast<std::size_t>(b) * shape_.heads + hd) * S * S];
      gemm(S, S, d, scale, plain(q, ld), trans(k, ld), 0.0f, p, S);
      for (int i = 0; i < S; ++i) {  // row softmax
        float* row = p + i * S;
        const float mx = *std::max_element(row, row + S);
        float sum = 0;
        for (int j = 0; j < S; ++j) sum += (row[j] = std::exp(row[j] - mx));
        for (int j = 0; j < S; ++j) row[j] /= sum;
      }
      gemm(S, d, S, 1.0f, plain(p, S), plain(v, ld), 0.0f, &a.attn[static_cast<std::size_t>(b) * S * h + hd * d], h);
    }
}

void TransformerStack::forward(ComputeClock& clock) {
  const int t = shape_.tokens(), h = shape_.hidden;
  const Offsets off(h);
  for (int l = 0; l < shape_.layers; ++l) {
    Acts& a = acts_[l];
    const float* w = &weights_[static_cast<std::size_t>(l) * shape_.params_per_layer()];
    clock.timed([&] {
      gemm(t, 3 * h, h, 1.0f, plain(a.x.data(), h), plain(w + off.qkv, 3 * h), 0.0f, a.qkv.data(), 3 * h);
      attention_forward(a);
      gemm(t, h, h, 1.0f, plain(a.attn.data(), h), plain(w + off.o, h), 0.0f, a.y1.data(), h);
      gemm(t, 4 * h, h, 1.0f, plain(a.y1.data(), h), plain(w + off.w1, 4 * h), 0.0f, a.h.data(), 4 * h);
      for (float& v : a.h) v = std::max(v, 0.0f);  // ReLU
      gemm(t, h, 4 * h, 1.0f, plain(a.h.data(), 4 * h), plain(w + off.w2, h), 0.0f, a.y.data(), h);
      if (l + 1 < shape_.layers) acts_[l + 1].x = a.y;
    });
  }
}

void TransformerStack::attention_backward(Acts& a, const std::vector<float>& d_attn, std::vector<float>& d_qkv) {
  const int S = shape_.seq, d = shape_.head_dim(), h = shape_.hidden, ld = 3 * h;
  const float scale = 1.0f / std::sqrt(float(d));
  std::vector<float>& dp = dp_;
  for (int b = 0; b < shape_.batch; ++b)
    for (int hd = 0; hd < shape_.heads; ++hd) {
      const std::size_t base = static_cast<std::size_t>(b) * S * ld + hd * d;
      const float* q = &a.qkv[base];
      const float* k = q + h;
      const float* v = q + 2 * h;
      const float* p = &a.probs[(static_cast<std::size_t>(b) * shape_.heads + hd) * S * S];
      const float* dout = &d_attn[static_cast<std::size_t>(b) * S * h + hd * d];
      float* dq = &d_qkv[base];
      gemm(S, S, d, 1.0f, plain(dout, h), trans(v, ld), 0.0f, dp.data(), S);          // dP = dO·Vᵀ
      gemm(S, d, S, 1.0f, trans(p, S), plain(dout, h), 0.0f, dq + 2 * h, ld);         // dV = Pᵀ·dO
      for (int i = 0; i < S; ++i) {  // softmax backward: dS = P ∘ (dP − rowsum(dP ∘ P))
        float dot = 0;
        for (int j = 0; j < S; ++j) dot += dp[i * S + j] * p[i * S + j];
        for (int j = 0; j < S; ++j) dp[i * S + j] = p[i * S + j] * (dp[i * S + j] - dot);
      }
      gemm(S, d, S, scale, plain(dp.data(), S), plain(k, ld), 0.0f, dq, ld);          // dQ = dS·K
      gemm(S, d, S, scale, trans(dp.data(), S), plain(q, ld), 0.0f, dq + h, ld);      // dK = dSᵀ·Q
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
      gemm(h, 4 * h, t, 1.0f, trans(a.y1.data(), h), plain(dh.data(), 4 * h), 0.0f, g + off.w1, 4 * h);
      gemm(t, h, 4 * h, 1.0f, plain(dh.data(), 4 * h), trans(w + off.w1, 4 * h), 0.0f, dy1.data(), h);
      gemm(h, h, t, 1.0f, trans(a.attn.data(), h), plain(dy1.data(), h), 0.0f, g + off.o, h);
      gemm(t, h, h, 1.0f, plain(dy1.data(), h), trans(w + off.o, h), 0.0f, dattn.data(), h);
      attention_backward(a, dattn, dqkv);
      gemm(h, 3 * h, t, 1.0f, trans(a.x.data(), h), plain(dqkv.data(), 3 * h), 0.0f, g + off.qkv, 3 * h);
      gemm(t, h, 3 * h, 1.0f, plain(dqkv.data(), 3 * h), trans(w + off.qkv, 3 * h), 0.0f, dx.data(), h);
      dy.swap(dx);
    });
    layer_done(l);
  }
}

}  // namespace perfgate::step_proxy

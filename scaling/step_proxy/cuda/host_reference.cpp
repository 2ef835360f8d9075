#include "host_reference.hpp"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <limits>

namespace perfgate::step_proxy::gpu {
namespace {

using Tensor = std::vector<double>;  // row-major

// One layer's weights inside its 12h² block, as in GpuTransformer.
struct Matrices {
  std::size_t q, k, v, o, w1, w2, end;
  explicit Matrices(std::size_t h)
      : q(0), k(h * h), v(2 * h * h), o(3 * h * h), w1(4 * h * h), w2(8 * h * h), end(12 * h * h) {}
};

// Y[t,out] (+)= X[t,in]·W[out,in]ᵀ
void linear(const double* x, const double* w, double* y, std::size_t t, std::size_t out,
            std::size_t in, bool accumulate) {
  for (std::size_t r = 0; r < t; ++r)
    for (std::size_t o = 0; o < out; ++o) {
      double sum = accumulate ? y[r * out + o] : 0.0;
      for (std::size_t i = 0; i < in; ++i) sum += x[r * in + i] * w[o * in + i];
      y[r * out + o] = sum;
    }
}

// dX[t,in] (+)= dY[t,out]·W[out,in]
void data_grad(const double* dy, const double* w, double* dx, std::size_t t, std::size_t out,
               std::size_t in, bool accumulate) {
  for (std::size_t r = 0; r < t; ++r)
    for (std::size_t i = 0; i < in; ++i) {
      double sum = accumulate ? dx[r * in + i] : 0.0;
      for (std::size_t o = 0; o < out; ++o) sum += dy[r * out + o] * w[o * in + i];
      dx[r * in + i] = sum;
    }
}

// dW[out,in] = dY[t,out]ᵀ·X[t,in]
void weight_grad(const double* dy, const double* x, double* dw, std::size_t t, std::size_t out,
                 std::size_t in) {
  for (std::size_t o = 0; o < out; ++o)
    for (std::size_t i = 0; i < in; ++i) {
      double sum = 0;
      for (std::size_t r = 0; r < t; ++r) sum += dy[r * out + o] * x[r * in + i];
      dw[o * in + i] = sum;
    }
}

// The GPU kernels' tanh GeLU and its derivative.
double gelu(double x) {
  const double u = 0.7978845608 * (x + 0.044715 * x * x * x);
  return 0.5 * x * (1.0 + std::tanh(u));
}
double gelu_grad(double x) {
  const double u = 0.7978845608 * (x + 0.044715 * x * x * x);
  const double th = std::tanh(u), du = 0.7978845608 * (1.0 + 3.0 * 0.044715 * x * x);
  return 0.5 * (1.0 + th) + 0.5 * x * (1.0 - th * th) * du;
}

class Network {
 public:
  Network(const Shape& s, const ModelInputs& in, bool round)
      : s_(s),
        in_(in),
        round_(round),
        t_(std::size_t(s.tokens())),
        h_(std::size_t(s.hidden)),
        d_(std::size_t(s.head_dim())),
        m_(h_) {}

  // The output x_L; every layer's activations are kept for backward().
  const Tensor& forward() {
    acts_.assign(std::size_t(s_.layers), {});
    Tensor x = in_.x0;
    for (int l = 0; l < s_.layers; ++l) {
      Acts& a = acts_[std::size_t(l)];
      const double* w = weights(l);
      a.x = x;
      a.q = project(x, w + m_.q, h_, h_);
      a.k = project(x, w + m_.k, h_, h_);
      a.v = project(x, w + m_.v, h_, h_);
      attention_forward(a);
      a.y1 = project(a.attn, w + m_.o, h_, h_);
      a.pre = project(a.y1, w + m_.w1, 4 * h_, h_);
      a.hg.resize(a.pre.size());
      for (std::size_t i = 0; i < a.pre.size(); ++i) a.hg[i] = gelu(a.pre[i]);
      store(a.hg);
      linear(a.hg.data(), w + m_.w2, x.data(), t_, h_, 4 * h_, true);  // the residual
      store(x);
    }
    output_ = x;
    return output_;
  }

  Tensor backward() {
    Tensor grads(in_.weights.size());
    Tensor dy = in_.loss_grad;
    for (int l = s_.layers - 1; l >= 0; --l) {
      const Acts& a = acts_[std::size_t(l)];
      const double* w = weights(l);
      double* g = &grads[std::size_t(l) * m_.end];
      weight_grad(dy.data(), a.hg.data(), g + m_.w2, t_, h_, 4 * h_);
      Tensor d_pre(t_ * 4 * h_);
      data_grad(dy.data(), w + m_.w2, d_pre.data(), t_, h_, 4 * h_, false);
      store(d_pre);
      for (std::size_t i = 0; i < d_pre.size(); ++i) d_pre[i] *= gelu_grad(a.pre[i]);
      store(d_pre);
      weight_grad(d_pre.data(), a.y1.data(), g + m_.w1, t_, 4 * h_, h_);
      Tensor d_y1(t_ * h_), d_attn(t_ * h_);
      data_grad(d_pre.data(), w + m_.w1, d_y1.data(), t_, 4 * h_, h_, false);
      store(d_y1);
      weight_grad(d_y1.data(), a.attn.data(), g + m_.o, t_, h_, h_);
      data_grad(d_y1.data(), w + m_.o, d_attn.data(), t_, h_, h_, false);
      store(d_attn);
      Tensor dq(t_ * h_), dk(t_ * h_), dv(t_ * h_);
      attention_backward(a, d_attn, dq, dk, dv);
      // dX = dY + dQ·Wq + dK·Wk + dV·Wv, each sum stored in bf16 as the GPU's three GEMMs do.
      Tensor dx = dy;
      const std::pair<const Tensor*, std::size_t> parts[] = {{&dq, m_.q}, {&dk, m_.k}, {&dv, m_.v}};
      for (const auto& [d_part, offset] : parts) {
        weight_grad(d_part->data(), a.x.data(), g + offset, t_, h_, h_);
        data_grad(d_part->data(), w + offset, dx.data(), t_, h_, h_, true);
        store(dx);
      }
      dy = std::move(dx);
    }
    return grads;
  }

 private:
  struct Acts {
    Tensor x, q, k, v, p, attn, y1, pre, hg;  // p: softmax probabilities [batch, heads, s, s]
  };

  const double* weights(int layer) const { return &in_.weights[std::size_t(layer) * m_.end]; }
  void store(Tensor& t) const {
    if (round_)
      for (double& v : t) v = round_to_bf16(v);
  }
  Tensor project(const Tensor& x, const double* w, std::size_t out, std::size_t in) const {
    Tensor y(t_ * out);
    linear(x.data(), w, y.data(), t_, out, in, false);
    store(y);
    return y;
  }
  // Element (token i of sequence b, head hd, dimension c) of a [tokens, h] tensor.
  std::size_t at(std::size_t b, std::size_t i, std::size_t hd, std::size_t c) const {
    return (b * std::size_t(s_.seq) + i) * h_ + hd * d_ + c;
  }
  std::size_t p_at(std::size_t b, std::size_t hd, std::size_t i, std::size_t j) const {
    const std::size_t S = std::size_t(s_.seq);
    return ((b * std::size_t(s_.heads) + hd) * S + i) * S + j;
  }

  // Non-causal softmax(Q·Kᵀ/√d)·V per sequence and head.
  void attention_forward(Acts& a) const {
    const std::size_t B = std::size_t(s_.batch), H = std::size_t(s_.heads), S = std::size_t(s_.seq);
    const double scale = 1.0 / std::sqrt(double(d_));
    a.p.assign(B * H * S * S, 0.0);
    a.attn.assign(t_ * h_, 0.0);
    for (std::size_t b = 0; b < B; ++b)
      for (std::size_t hd = 0; hd < H; ++hd)
        for (std::size_t i = 0; i < S; ++i) {
          double top = -std::numeric_limits<double>::infinity(), sum = 0;
          for (std::size_t j = 0; j < S; ++j) {
            double dot = 0;
            for (std::size_t c = 0; c < d_; ++c) dot += a.q[at(b, i, hd, c)] * a.k[at(b, j, hd, c)];
            a.p[p_at(b, hd, i, j)] = dot * scale;
            top = std::max(top, dot * scale);
          }
          for (std::size_t j = 0; j < S; ++j) {
            double& p = a.p[p_at(b, hd, i, j)];
            p = std::exp(p - top);
            sum += p;
          }
          for (std::size_t j = 0; j < S; ++j) a.p[p_at(b, hd, i, j)] /= sum;
          for (std::size_t c = 0; c < d_; ++c) {
            double o = 0;
            for (std::size_t j = 0; j < S; ++j) o += a.p[p_at(b, hd, i, j)] * a.v[at(b, j, hd, c)];
            a.attn[at(b, i, hd, c)] = o;
          }
        }
    store(a.attn);
  }

  // dV = Pᵀ·dO; dP = dO·Vᵀ; dS = P ⊙ (dP − rowsum(dO ⊙ O)); dQ = dS·K/√d; dK = dSᵀ·Q/√d.
  void attention_backward(const Acts& a, const Tensor& d_o, Tensor& dq, Tensor& dk,
                          Tensor& dv) const {
    const std::size_t B = std::size_t(s_.batch), H = std::size_t(s_.heads), S = std::size_t(s_.seq);
    const double scale = 1.0 / std::sqrt(double(d_));
    std::fill(dq.begin(), dq.end(), 0.0);
    std::fill(dk.begin(), dk.end(), 0.0);
    std::fill(dv.begin(), dv.end(), 0.0);
    std::vector<double> ds(S);
    for (std::size_t b = 0; b < B; ++b)
      for (std::size_t hd = 0; hd < H; ++hd)
        for (std::size_t i = 0; i < S; ++i) {
          double row = 0;
          for (std::size_t c = 0; c < d_; ++c)
            row += d_o[at(b, i, hd, c)] * a.attn[at(b, i, hd, c)];
          for (std::size_t j = 0; j < S; ++j) {
            const double p = a.p[p_at(b, hd, i, j)];
            double dp = 0;
            for (std::size_t c = 0; c < d_; ++c) {
              dp += d_o[at(b, i, hd, c)] * a.v[at(b, j, hd, c)];
              dv[at(b, j, hd, c)] += p * d_o[at(b, i, hd, c)];
            }
            ds[j] = p * (dp - row);
          }
          for (std::size_t j = 0; j < S; ++j)
            for (std::size_t c = 0; c < d_; ++c) {
              dq[at(b, i, hd, c)] += scale * ds[j] * a.k[at(b, j, hd, c)];
              dk[at(b, j, hd, c)] += scale * ds[j] * a.q[at(b, i, hd, c)];
            }
        }
    store(dq);
    store(dk);
    store(dv);
  }

  const Shape& s_;
  const ModelInputs& in_;
  bool round_;
  std::size_t t_, h_, d_;
  Matrices m_;
  std::vector<Acts> acts_;
  Tensor output_;
};

}  // namespace

double reference_loss(const Shape& s, const ModelInputs& in) {
  Network net(s, in, false);
  const Tensor& out = net.forward();
  double loss = 0;
  for (std::size_t i = 0; i < out.size(); ++i) loss += in.loss_grad[i] * out[i];
  return loss;
}

std::vector<double> reference_gradients(const Shape& s, const ModelInputs& in, bool round_storage) {
  Network net(s, in, round_storage);
  net.forward();
  return net.backward();
}

double bf16_to_double(std::uint16_t bits) {
  const std::uint32_t wide = std::uint32_t(bits) << 16;
  float f = 0;
  std::memcpy(&f, &wide, sizeof f);
  return f;
}

double round_to_bf16(double x) {
  float f = static_cast<float>(x);
  std::uint32_t bits = 0;
  std::memcpy(&bits, &f, sizeof bits);
  if ((bits & 0x7F800000u) != 0x7F800000u) bits += 0x7FFFu + ((bits >> 16) & 1u);  // ties to even
  bits &= 0xFFFF0000u;
  std::memcpy(&f, &bits, sizeof f);
  return f;
}

std::string weight_name(const Shape& s, std::size_t index) {
  const Matrices m(static_cast<std::size_t>(s.hidden));
  const std::size_t layer = index / m.end, within = index % m.end;
  const char* name = within < m.k    ? "Wq"
                     : within < m.v  ? "Wk"
                     : within < m.o  ? "Wv"
                     : within < m.w1 ? "Wo"
                     : within < m.w2 ? "W1"
                                     : "W2";
  return "layer " + std::to_string(layer) + " " + name;
}

GradientComparison compare_gradients(const Shape& s, const std::vector<double>& gpu,
                                     const std::vector<double>& reference) {
  const Matrices m(static_cast<std::size_t>(s.hidden));
  const std::size_t bounds[] = {m.q, m.k, m.v, m.o, m.w1, m.w2, m.end};
  GradientComparison result;
  for (std::size_t base = 0; base < reference.size(); base += m.end)
    for (int matrix = 0; matrix < 6; ++matrix) {
      double largest = 0, worst = 0;
      for (std::size_t i = base + bounds[matrix]; i < base + bounds[matrix + 1]; ++i) {
        largest = std::max(largest, std::fabs(reference[i]));
        const double diff = std::fabs(gpu[i] - reference[i]);
        worst = std::isnan(diff) ? std::numeric_limits<double>::infinity() : std::max(worst, diff);
      }
      const double error = largest > 0 ? worst / largest
                           : worst > 0 ? std::numeric_limits<double>::infinity()
                                       : 0.0;
      if (error > result.worst_error || result.worst_matrix.empty()) {
        result.worst_error = error;
        result.worst_matrix = weight_name(s, base + bounds[matrix]);
      }
    }
  return result;
}

}  // namespace perfgate::step_proxy::gpu

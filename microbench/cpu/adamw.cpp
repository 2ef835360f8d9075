// One AdamW step (decoupled weight decay, bias-corrected) over a list of tensors, out of place:
// reads param, grad, m, v; writes param', m', v'.
#include <cmath>

#include "perfgate/microbench/families/fused_ops.hpp"

namespace perfgate::microbench {

AdamwProblem::AdamwProblem(const CaseParams& p, Rng& rng) {
  const std::size_t n = count(p, "tensors"), size = count(p, "size");
  for (std::size_t i = 0; i < n; ++i) {
    const auto len = static_cast<std::int64_t>(size * (1 + i % 3));
    param.push_back(rng.floats(len));
    grad.push_back(rng.floats(len));
    m.push_back(rng.floats(len, 0.01f, 0.1f));
    v.push_back(rng.floats(len, 0.01f, 0.1f));
    for (auto& x : v.back()) x = std::abs(x);  // a second moment is never negative
  }
}

std::size_t AdamwProblem::total() const {
  std::size_t n = 0;
  for (const auto& t : param) n += t.size();
  return n;
}

std::vector<double> AdamwProblem::reference() const {
  const std::size_t n = total();
  std::vector<double> out(3 * n);
  const auto& hp = hyper;
  const double bc1 = 1 - std::pow(double(hp.beta1), hp.step),
               bc2 = 1 - std::pow(double(hp.beta2), hp.step);
  std::size_t off = 0;
  for (std::size_t t = 0; t < param.size(); ++t)
    for (std::size_t i = 0; i < param[t].size(); ++i, ++off) {
      const double g = grad[t][i];
      const double m1 = hp.beta1 * double(m[t][i]) + (1 - double(hp.beta1)) * g;
      const double v1 = hp.beta2 * double(v[t][i]) + (1 - double(hp.beta2)) * g * g;
      const double p1 = double(param[t][i]) * (1 - double(hp.lr) * hp.weight_decay) -
                        hp.lr * (m1 / bc1) / (std::sqrt(v1 / bc2) + hp.eps);
      out[off] = p1;
      out[n + off] = m1;
      out[2 * n + off] = v1;
    }
  return out;
}

namespace {

class AdamwBase : public HostInstance {
 public:
  explicit AdamwBase(const AdamwProblem& p) : HostInstance(3 * p.total()), p_(p), n_(p.total()) {
    const auto& hp = p.hyper;
    bc1_ = static_cast<float>(1 - std::pow(double(hp.beta1), hp.step));
    bc2_sqrt_ = static_cast<float>(std::sqrt(1 - std::pow(double(hp.beta2), hp.step)));
  }

 protected:
  const AdamwProblem& p_;
  std::size_t n_;
  float bc1_ = 1, bc2_sqrt_ = 1;
};

// torch.optim.AdamW(foreach=True, fused=False) shape: a list of elementwise kernels per step.
class AdamwUnfused final : public AdamwBase {
 public:
  explicit AdamwUnfused(const AdamwProblem& p) : AdamwBase(p), tmp_(p.total()) {}
  void run() override {
    const auto& hp = p_.hyper;
    std::size_t off = 0;
    for (std::size_t t = 0; t < p_.param.size(); ++t) {
      const std::size_t len = p_.param[t].size();
      const float *g = p_.grad[t].data(), *m = p_.m[t].data(), *v = p_.v[t].data(),
                  *p = p_.param[t].data();
      float *p1 = &out_[off], *m1 = &out_[n_ + off], *v1 = &out_[2 * n_ + off], *tmp = &tmp_[off];
      for (std::size_t i = 0; i < len; ++i) m1[i] = m[i] * hp.beta1;                // m.mul_
      for (std::size_t i = 0; i < len; ++i) m1[i] += g[i] * (1 - hp.beta1);         // m.add_
      for (std::size_t i = 0; i < len; ++i) v1[i] = v[i] * hp.beta2;                // v.mul_
      for (std::size_t i = 0; i < len; ++i) v1[i] += g[i] * g[i] * (1 - hp.beta2);  // v.addcmul_
      for (std::size_t i = 0; i < len; ++i) p1[i] = p[i] * (1 - hp.lr * hp.weight_decay);  // p.mul_
      for (std::size_t i = 0; i < len; ++i)
        tmp[i] = std::sqrt(v1[i]) / bc2_sqrt_ + hp.eps;                              // denom
      for (std::size_t i = 0; i < len; ++i) p1[i] -= hp.lr / bc1_ * m1[i] / tmp[i];  // p.addcdiv_
      off += len;
    }
  }

 private:
  std::vector<float> tmp_;
};

// One pass per element: each value is read once and each result written once.
class AdamwFused final : public AdamwBase {
 public:
  using AdamwBase::AdamwBase;
  void run() override {
    const auto& hp = p_.hyper;
    const float step = hp.lr / bc1_, decay = 1 - hp.lr * hp.weight_decay;
    std::size_t off = 0;
    for (std::size_t t = 0; t < p_.param.size(); ++t) {
      const std::size_t len = p_.param[t].size();
      const float *g = p_.grad[t].data(), *m = p_.m[t].data(), *v = p_.v[t].data(),
                  *p = p_.param[t].data();
      float *p1 = &out_[off], *m1 = &out_[n_ + off], *v1 = &out_[2 * n_ + off];
      for (std::size_t i = 0; i < len; ++i) {
        const float mi = m[i] * hp.beta1 + g[i] * (1 - hp.beta1);
        const float vi = v[i] * hp.beta2 + g[i] * g[i] * (1 - hp.beta2);
        m1[i] = mi;
        v1[i] = vi;
        p1[i] = p[i] * decay - step * mi / (std::sqrt(vi) / bc2_sqrt_ + hp.eps);
      }
      off += len;
    }
  }
};

}  // namespace

PERFGATE_FAMILY(adamw, AdamwProblem) {
  family.describe("AdamW step over a list of tensors")
      .int_axis("tensors", {64})
      .int_axis("size", {1 << 16, 1 << 18})
      .workload([](const CaseParams& p) {
        double n = 0;
        for (std::int64_t i = 0; i < p.integer("tensors"); ++i)
          n += static_cast<double>(p.integer("size") * (1 + i % 3));
        return Workload{12 * n, 7 * n * 4};  // ~12 flops per element; 4 arrays in, 3 out
      });
}
PERFGATE_IMPLEMENTATION(adamw, AdamwProblem, cpu, unfused) {
  return std::make_unique<AdamwUnfused>(problem);
}
PERFGATE_IMPLEMENTATION(adamw, AdamwProblem, cpu, fused) {
  return std::make_unique<AdamwFused>(problem);
}

}  // namespace perfgate::microbench

// Attention backward. `naive`: by materialised probabilities, the reference path of training (one
// routine serves the double reference and this fp32 implementation). `blocked`: the shared
// FlashAttention-style kernel that recomputes the probabilities from the forward's log-sum-exp.
#include <algorithm>
#include <cmath>
#include <limits>

#include "perfgate/microbench/families/attention.hpp"
#include "perfgate/microbench/kernels/attention.hpp"

namespace perfgate::microbench {

AttentionBackwardProblem::AttentionBackwardProblem(const CaseParams& p, Rng& rng)
    : AttentionProblem(p, rng), dout(stored(rng, dtype, q.size())) {}

namespace {

// dQ | dK | dV into `out` (zeroed here), computing in T. Per (sequence, head): S = scale·Q Kᵀ
// (masked), P = softmax(S), dV += Pᵀ dO, dP = dO Vᵀ, dS = P ∘ (dP − rowsum(dO ∘ O)),
// dQ = scale·dS K, dK += scale·dSᵀ Q.
template <class T>
void attention_backward(const AttentionBackwardProblem& pr, std::vector<T>& out,
                        std::vector<T>& prob, std::vector<T>& grad) {
  const std::size_t h = pr.h, hkv = pr.hkv, d = pr.d, group = h / hkv;
  const std::size_t nq = pr.q.size(), nk = pr.k.size();
  std::fill(out.begin(), out.end(), T(0));
  T* dq = out.data();
  T* dk = dq + nq;
  T* dv = dk + nk;
  const T sc = T(1) / std::sqrt(static_cast<T>(d));
  std::vector<T> o(d);
  for (std::size_t seq = 0; seq + 1 < pr.cu_q.size(); ++seq) {
    const std::size_t lq = pr.cu_q[seq + 1] - pr.cu_q[seq], lk = pr.cu_k[seq + 1] - pr.cu_k[seq];
    prob.assign(lq * lk, T(0));
    grad.assign(lq * lk, T(0));
    for (std::size_t head = 0; head < h; ++head) {
      const std::size_t kvh = head / group;
      auto qrow = [&](std::size_t i) { return &pr.q[((pr.cu_q[seq] + i) * h + head) * d]; };
      auto orow = [&](std::size_t i) { return &pr.dout[((pr.cu_q[seq] + i) * h + head) * d]; };
      auto kv = [&](std::size_t j) { return ((pr.cu_k[seq] + j) * hkv + kvh) * d; };
      for (std::size_t i = 0; i < lq; ++i) {
        const std::size_t visible = kernels::visible_keys(pr.causal, i, lq, lk);
        T* p = &prob[i * lk];
        T mx = -std::numeric_limits<T>::infinity();
        for (std::size_t j = 0; j < visible; ++j) {
          T dot = 0;
          for (std::size_t c = 0; c < d; ++c) dot += T(qrow(i)[c]) * T(pr.k[kv(j) + c]);
          mx = std::max(mx, p[j] = dot * sc);
        }
        T sum = 0;
        for (std::size_t j = 0; j < visible; ++j) sum += (p[j] = std::exp(p[j] - mx));
        for (std::size_t j = 0; j < visible; ++j) p[j] /= sum;
        for (std::size_t j = visible; j < lk; ++j) p[j] = 0;
        // O_i (recomputed) and D_i = dO_i · O_i.
        std::fill(o.begin(), o.end(), T(0));
        for (std::size_t j = 0; j < visible; ++j)
          for (std::size_t c = 0; c < d; ++c) o[c] += p[j] * T(pr.v[kv(j) + c]);
        T di = 0;
        for (std::size_t c = 0; c < d; ++c) di += T(orow(i)[c]) * o[c];
        T* g = &grad[i * lk];
        for (std::size_t j = 0; j < visible; ++j) {
          T dp = 0;
          for (std::size_t c = 0; c < d; ++c) dp += T(orow(i)[c]) * T(pr.v[kv(j) + c]);
          g[j] = p[j] * (dp - di);
        }
      }
      for (std::size_t i = 0; i < lq; ++i)
        for (std::size_t j = 0; j < lk; ++j) {
          const T p = prob[i * lk + j], g = grad[i * lk + j] * sc;
          T* dqi = &dq[((pr.cu_q[seq] + i) * h + head) * d];
          for (std::size_t c = 0; c < d; ++c) {
            dv[kv(j) + c] += p * T(orow(i)[c]);
            dqi[c] += g * T(pr.k[kv(j) + c]);
            dk[kv(j) + c] += g * T(qrow(i)[c]);
          }
        }
    }
  }
}

class AttentionBackwardCpu final : public HostInstance {
 public:
  explicit AttentionBackwardCpu(const AttentionBackwardProblem& p)
      : HostInstance(p.q.size() + 2 * p.k.size()), p_(p) {}
  void run() override {
    attention_backward<float>(p_, out_, prob_, grad_);
    for (auto& x : out_) x = round_to(p_.dtype, x);
  }

 private:
  const AttentionBackwardProblem& p_;
  std::vector<float> prob_, grad_;
};

// The forward pass (O and the log-sum-exps) runs once when the instance is made; run() times
// the backward kernel alone.
class AttentionBackwardBlocked final : public HostInstance {
 public:
  explicit AttentionBackwardBlocked(const AttentionBackwardProblem& p)
      : HostInstance(p.q.size() + 2 * p.k.size()), p_(p), o_(p.q.size()), lse_(p.q.size() / p.d) {
    for (std::size_t seq = 0; seq + 1 < p_.cu_q.size(); ++seq) {
      const Operands x = operands(seq);
      kernels::attention_forward_blocked(x.shape, x.q, x.k, x.v, {&o_[x.q_offset], x.q.stride},
                                         &lse_[x.lse_offset]);
    }
  }
  void run() override {
    std::fill(out_.begin(), out_.end(), 0.0f);
    float* dq = out_.data();
    float* dk = dq + p_.q.size();
    float* dv = dk + p_.k.size();
    for (std::size_t seq = 0; seq + 1 < p_.cu_q.size(); ++seq) {
      const Operands x = operands(seq);
      const std::size_t qs = x.q.stride, ks = x.k.stride;
      kernels::attention_backward_blocked(
          x.shape, x.q, x.k, x.v, {&o_[x.q_offset], qs}, {&p_.dout[x.q_offset], qs},
          &lse_[x.lse_offset], {dq + x.q_offset, qs}, {dk + x.k_offset, ks}, {dv + x.k_offset, ks});
    }
    round_all(p_.dtype, out_);
  }

 private:
  struct Operands {
    kernels::AttentionShape shape;
    kernels::ConstRows q, k, v;
    std::size_t q_offset, k_offset, lse_offset;
  };
  Operands operands(std::size_t seq) const {
    const std::size_t qs = p_.h * p_.d, ks = p_.hkv * p_.d, q0 = p_.cu_q[seq], k0 = p_.cu_k[seq];
    const kernels::AttentionShape shape{
        p_.h, p_.hkv, p_.d, p_.cu_q[seq + 1] - q0, p_.cu_k[seq + 1] - k0, p_.causal, p_.scale()};
    return {shape,
            {&p_.q[q0 * qs], qs},
            {&p_.k[k0 * ks], ks},
            {&p_.v[k0 * ks], ks},
            q0 * qs,
            k0 * ks,
            q0 * p_.h};
  }

  const AttentionBackwardProblem& p_;
  std::vector<float> o_, lse_;
};

}  // namespace

std::vector<double> AttentionBackwardProblem::reference() const {
  std::vector<double> out(q.size() + 2 * k.size()), prob, grad;
  attention_backward<double>(*this, out, prob, grad);
  return out;
}

PERFGATE_FAMILY(attention_backward, AttentionBackwardProblem) {
  family
      .describe(
          "attention backward (dQ, dK, dV): materialised probabilities or recomputed from the "
          "log-sum-exp")
      .int_axis("b", {2})
      .int_axis("h", {8})
      .int_axis("hkv", {8, 2})
      .int_axis("sq", {512})
      .int_axis("sk", {512})
      .int_axis("d", {64})
      .bool_axis("causal")
      // bf16 as the forward family stores it (inputs rounded to bf16, computed in fp32, outputs
      // rounded): the storage the GPU backend needs; f32 for the CPU reference path.
      .string_axis("dtype", {"f32", "bf16"})
      .filter([](const CaseParams& p) {
        return p.integer("sq") <= p.integer("sk") && p.integer("h") % p.integer("hkv") == 0;
      })
      .workload([](const CaseParams& p) {
        // Backward = 2.5 × forward FLOPs (FlashAttention's ratio: five score-sized products,
        // QKᵀ recomputed, dV, dP, dQ, dK, against the forward's two), over the same kept scores.
        const Workload fwd = attention_workload(p);
        const auto e = static_cast<double>(dtype_size(dtype_of(p)));
        const auto nq =
            static_cast<double>(p.integer("b") * p.integer("sq") * p.integer("h") * p.integer("d"));
        const auto nk = static_cast<double>(p.integer("b") * p.integer("sk") * p.integer("hkv") *
                                            p.integer("d"));
        return Workload{2.5 * fwd.flops, (3 * nq + 4 * nk) * e};  // Q, dO, dQ; K, V, dK, dV
      });
}
PERFGATE_IMPLEMENTATION(attention_backward, AttentionBackwardProblem, cpu, naive) {
  return std::make_unique<AttentionBackwardCpu>(problem);
}
PERFGATE_IMPLEMENTATION(attention_backward, AttentionBackwardProblem, cpu, blocked) {
  return std::make_unique<AttentionBackwardBlocked>(problem);
}

}  // namespace perfgate::microbench

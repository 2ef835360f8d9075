#include "attention_reference.hpp"

#include <algorithm>
#include <cmath>

namespace perfgate::cuda::check {

std::size_t q_elements(AttentionShape s) {
  return std::size_t(s.batch * s.seq_q * s.heads * s.head_dim);
}
std::size_t kv_elements(AttentionShape s) {
  return std::size_t(s.batch * s.seq_kv * s.kv_heads * s.head_dim);
}

namespace {

// Probabilities of one (batch, head), row-major [Sq, Skv].
std::vector<double> probabilities(const HostAttention& in, AttentionShape s, std::int64_t b,
                                  std::int64_t h) {
  const std::int64_t hk = h / (s.heads / s.kv_heads), D = s.head_dim;
  const double scale = 1.0 / std::sqrt(double(D));
  std::vector<double> p(std::size_t(s.seq_q * s.seq_kv), 0.0);
  for (std::int64_t i = 0; i < s.seq_q; ++i) {
    const float* qi = in.q.data() + ((b * s.seq_q + i) * s.heads + h) * D;
    const std::int64_t last = s.causal ? i + s.seq_kv - s.seq_q : s.seq_kv - 1;
    double m = -INFINITY, sum = 0;
    double* row = p.data() + i * s.seq_kv;
    for (std::int64_t j = 0; j <= last && j < s.seq_kv; ++j) {
      const float* kj = in.k.data() + ((b * s.seq_kv + j) * s.kv_heads + hk) * D;
      double dot = 0;
      for (std::int64_t d = 0; d < D; ++d) dot += double(qi[d]) * kj[d];
      row[j] = dot * scale;
      m = std::max(m, row[j]);
    }
    for (std::int64_t j = 0; j <= last && j < s.seq_kv; ++j) sum += (row[j] = std::exp(row[j] - m));
    for (std::int64_t j = 0; j <= last && j < s.seq_kv; ++j) row[j] /= sum;
  }
  return p;
}

}  // namespace

std::vector<double> forward_reference(const HostAttention& in, AttentionShape s) {
  std::vector<double> o(q_elements(s), 0.0);
  const std::int64_t D = s.head_dim;
  for (std::int64_t b = 0; b < s.batch; ++b)
    for (std::int64_t h = 0; h < s.heads; ++h) {
      const auto p = probabilities(in, s, b, h);
      const std::int64_t hk = h / (s.heads / s.kv_heads);
      for (std::int64_t i = 0; i < s.seq_q; ++i)
        for (std::int64_t j = 0; j < s.seq_kv; ++j) {
          const double pij = p[std::size_t(i * s.seq_kv + j)];
          if (pij == 0) continue;
          const float* vj = in.v.data() + ((b * s.seq_kv + j) * s.kv_heads + hk) * D;
          double* oi = o.data() + ((b * s.seq_q + i) * s.heads + h) * D;
          for (std::int64_t d = 0; d < D; ++d) oi[d] += pij * vj[d];
        }
    }
  return o;
}

// dQ, dK, dV concatenated: dP = dO V^T, dS = P (dP - rowsum(dO * O)), dQ = c dS K, dK = c dS^T Q,
// dV = P^T dO.
std::vector<double> backward_reference(const HostAttention& in, AttentionShape s) {
  const auto o = forward_reference(in, s);
  const std::int64_t D = s.head_dim;
  const double c = 1.0 / std::sqrt(double(D));
  std::vector<double> dq(q_elements(s), 0.0), dk(kv_elements(s), 0.0), dv(kv_elements(s), 0.0);
  for (std::int64_t b = 0; b < s.batch; ++b)
    for (std::int64_t h = 0; h < s.heads; ++h) {
      const auto p = probabilities(in, s, b, h);
      const std::int64_t hk = h / (s.heads / s.kv_heads);
      auto q_at = [&](std::int64_t i) { return ((b * s.seq_q + i) * s.heads + h) * D; };
      auto kv_at = [&](std::int64_t j) { return ((b * s.seq_kv + j) * s.kv_heads + hk) * D; };
      for (std::int64_t i = 0; i < s.seq_q; ++i) {
        double delta = 0;
        for (std::int64_t d = 0; d < D; ++d)
          delta += double(in.d_o[std::size_t(q_at(i) + d)]) * o[std::size_t(q_at(i) + d)];
        for (std::int64_t j = 0; j < s.seq_kv; ++j) {
          const double pij = p[std::size_t(i * s.seq_kv + j)];
          if (pij == 0) continue;
          double dp = 0;
          for (std::int64_t d = 0; d < D; ++d)
            dp += double(in.d_o[std::size_t(q_at(i) + d)]) * in.v[std::size_t(kv_at(j) + d)];
          const double ds = pij * (dp - delta) * c;
          for (std::int64_t d = 0; d < D; ++d) {
            dq[std::size_t(q_at(i) + d)] += ds * in.k[std::size_t(kv_at(j) + d)];
            dk[std::size_t(kv_at(j) + d)] += ds * in.q[std::size_t(q_at(i) + d)];
            dv[std::size_t(kv_at(j) + d)] += pij * in.d_o[std::size_t(q_at(i) + d)];
          }
        }
      }
    }
  dq.insert(dq.end(), dk.begin(), dk.end());
  dq.insert(dq.end(), dv.begin(), dv.end());
  return dq;
}

}  // namespace perfgate::cuda::check

#include <cmath>
#include <limits>
#include <vector>

#include "perfgate/microbench/kernels/attention.hpp"

namespace perfgate::microbench::kernels {

namespace {

constexpr std::size_t kBq = 16, kBk = 64;  // query rows per block, keys per tile
constexpr float kMinusInf = -std::numeric_limits<float>::infinity();

const float* row(ConstRows r, std::size_t t, std::size_t head, std::size_t d) {
  return r.data + t * r.stride + head * d;
}
float* row(Rows r, std::size_t t, std::size_t head, std::size_t d) {
  return r.data + t * r.stride + head * d;
}

float dot(const float* a, const float* b, std::size_t n) {
  float acc = 0;
  for (std::size_t c = 0; c < n; ++c) acc += a[c] * b[c];
  return acc;
}

}  // namespace

// A block of query rows sweeps the key tiles once, keeping per row a running max, a running sum
// and an unnormalised accumulator.
void attention_forward_blocked(const AttentionShape& s, ConstRows q, ConstRows k, ConstRows v,
                               Rows o, float* lse) {
  const std::size_t d = s.head_dim, group = s.heads / s.kv_heads;
  std::vector<float> tile(kBq * kBk), acc(kBq * d), mx(kBq), sum(kBq);
  for (std::size_t head = 0; head < s.heads; ++head) {
    const std::size_t kvh = head / group;
    for (std::size_t i0 = 0; i0 < s.lq; i0 += kBq) {
      const std::size_t bq = std::min(kBq, s.lq - i0);
      std::fill(mx.begin(), mx.end(), kMinusInf);
      std::fill(sum.begin(), sum.end(), 0.0f);
      std::fill(acc.begin(), acc.end(), 0.0f);
      const std::size_t key_end = visible_keys(s.causal, i0 + bq - 1, s.lq, s.lk);
      for (std::size_t j0 = 0; j0 < key_end; j0 += kBk) {
        const std::size_t bk = std::min(kBk, key_end - j0);
        for (std::size_t r = 0; r < bq; ++r) {
          const float* qi = row(q, i0 + r, head, d);
          const std::size_t nk = visible_keys(s.causal, i0 + r, s.lq, s.lk);
          float* srow = &tile[r * kBk];
          float m = mx[r];
          for (std::size_t j = 0; j < bk; ++j) {
            srow[j] = j0 + j < nk ? dot(qi, row(k, j0 + j, kvh, d), d) * s.scale : kMinusInf;
            m = std::max(m, srow[j]);
          }
          if (m == kMinusInf) continue;  // a fully masked tile
          const float correction = std::exp(mx[r] - m);
          float* ar = &acc[r * d];
          for (std::size_t c = 0; c < d; ++c) ar[c] *= correction;
          float tile_sum = 0;
          for (std::size_t j = 0; j < bk; ++j) {
            const float p = std::exp(srow[j] - m);
            tile_sum += p;
            const float* vj = row(v, j0 + j, kvh, d);
            for (std::size_t c = 0; c < d; ++c) ar[c] += p * vj[c];
          }
          sum[r] = sum[r] * correction + tile_sum;
          mx[r] = m;
        }
      }
      for (std::size_t r = 0; r < bq; ++r) {
        float* oi = row(o, i0 + r, head, d);
        const float inv = 1.0f / sum[r];
        for (std::size_t c = 0; c < d; ++c) oi[c] = acc[r * d + c] * inv;
        if (lse) lse[head * s.lq + i0 + r] = mx[r] + std::log(sum[r]);
      }
    }
  }
}

// Per key tile, every query row that sees it recomputes P = exp(scale·q·k − lse) and adds its
// share: dV += P dO, dS = P ∘ (dO·Vᵀ − D) with D = rowsum(dO ∘ O), dQ += scale·dS K,
// dK += scale·dSᵀ Q. The tile's keys and values stay in cache across the query rows.
void attention_backward_blocked(const AttentionShape& s, ConstRows q, ConstRows k, ConstRows v,
                                ConstRows o, ConstRows dout, const float* lse, Rows dq, Rows dk,
                                Rows dv) {
  const std::size_t d = s.head_dim, group = s.heads / s.kv_heads;
  std::vector<float> delta(s.lq);
  for (std::size_t head = 0; head < s.heads; ++head) {
    const std::size_t kvh = head / group;
    for (std::size_t i = 0; i < s.lq; ++i)
      delta[i] = dot(row(dout, i, head, d), row(o, i, head, d), d);
    for (std::size_t j0 = 0; j0 < s.lk; j0 += kBk) {
      for (std::size_t i = 0; i < s.lq; ++i) {
        const std::size_t j1 = std::min(visible_keys(s.causal, i, s.lq, s.lk), j0 + kBk);
        const float* qi = row(q, i, head, d);
        const float* doi = row(dout, i, head, d);
        float* dqi = row(dq, i, head, d);
        const float li = lse[head * s.lq + i];
        for (std::size_t j = j0; j < j1; ++j) {
          const float* kj = row(k, j, kvh, d);
          const float* vj = row(v, j, kvh, d);
          const float p = std::exp(dot(qi, kj, d) * s.scale - li);
          const float ds = p * (dot(doi, vj, d) - delta[i]) * s.scale;
          float* dkj = row(dk, j, kvh, d);
          float* dvj = row(dv, j, kvh, d);
          for (std::size_t c = 0; c < d; ++c) {
            dvj[c] += p * doi[c];
            dqi[c] += ds * kj[c];
            dkj[c] += ds * qi[c];
          }
        }
      }
    }
  }
}

}  // namespace perfgate::microbench::kernels

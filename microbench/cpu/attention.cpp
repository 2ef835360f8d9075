// Attention forward: family definition, double reference, and the CPU variants:
// naive (materialised scores, the unfused baseline) and blocked (online softmax, flash-style).
#include "perfgate/microbench/families/attention.hpp"
#include "perfgate/microbench/kernels/attention.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <tuple>

#include <fmt/format.h>

#include "perfgate/core/attention_scores.hpp"
#include "perfgate/core/error.hpp"

namespace perfgate::microbench {

AttentionProblem::AttentionProblem(const CaseParams& p, Rng& rng)
    : h(count(p, "h")),
      hkv(count(p, "hkv")),
      d(count(p, "d")),
      causal(p.flag("causal")),
      dtype(dtype_of(p)) {
  if (h == 0 || hkv == 0 || h % hkv != 0)
    throw InputError(fmt::format("attention: hkv={} must divide h={}", hkv, h));
  std::tie(cu_q, cu_k) = attention_offsets(p);
  q = stored(rng, dtype, total_q() * h * d);
  k = stored(rng, dtype, cu_k.back() * hkv * d);
  v = stored(rng, dtype, cu_k.back() * hkv * d);
}

std::pair<std::vector<std::size_t>, std::vector<std::size_t>> attention_offsets(
    const CaseParams& p) {
  const std::size_t b = count(p, "b"), sq = count(p, "sq"), sk = count(p, "sk");
  const bool varlen = p.has("varlen") && p.flag("varlen");
  // Lengths come from their own fixed seed: the workload model must see the same offsets.
  Rng lengths(0x5eed);
  std::vector<std::size_t> cu_q{0}, cu_k{0};
  for (std::size_t i = 0; i < b; ++i) {
    const auto lq =
        varlen ? static_cast<std::size_t>(lengths.integer(static_cast<std::int64_t>((sq + 1) / 2),
                                                          static_cast<std::int64_t>(sq)))
               : sq;
    cu_q.push_back(cu_q.back() + lq);
    cu_k.push_back(cu_k.back() + (varlen ? lq : sk));
  }
  return {cu_q, cu_k};
}

float AttentionProblem::scale() const {
  return 1.0f / std::sqrt(static_cast<float>(d));
}

Workload attention_workload(const CaseParams& p) {
  const auto [cu_q, cu_k] = attention_offsets(p);
  const auto h = static_cast<double>(p.integer("h")), hkv = static_cast<double>(p.integer("hkv")),
             d = static_cast<double>(p.integer("d"));
  // The scores the mask keeps, counted exactly: halving Sq·Sk (FlashAttention's convention)
  // holds only for Sq = Sk and undercounts the bottom-right aligned mask when Sq < Sk.
  const bool causal = p.flag("causal");
  double scores = 0;
  for (std::size_t i = 0; i + 1 < cu_q.size(); ++i)
    scores +=
        static_cast<double>(kept_scores(causal, cu_q[i + 1] - cu_q[i], cu_k[i + 1] - cu_k[i]));
  const double flops = 4.0 * h * d * scores;  // Q·Kᵀ and P·V, 2 FLOPs per multiply-add each
  const auto tq = static_cast<double>(cu_q.back()), tk = static_cast<double>(cu_k.back());
  const auto elem = static_cast<double>(dtype_size(dtype_of(p)));
  return Workload{flops, (2 * tq * h * d + 2 * tk * hkv * d) * elem};  // Q, O, K, V once each
}

using kernels::visible_keys;

std::vector<double> AttentionProblem::reference() const {
  std::vector<double> out(q.size());
  std::vector<double> s;
  const std::size_t group = h / hkv;
  const double sc = 1.0 / std::sqrt(static_cast<double>(d));
  for (std::size_t seq = 0; seq + 1 < cu_q.size(); ++seq) {
    const std::size_t lq = cu_q[seq + 1] - cu_q[seq], lk = cu_k[seq + 1] - cu_k[seq];
    for (std::size_t head = 0; head < h; ++head) {
      const std::size_t kvh = head / group;
      for (std::size_t i = 0; i < lq; ++i) {
        const float* qi = &q[((cu_q[seq] + i) * h + head) * d];
        const std::size_t nk = visible_keys(causal, i, lq, lk);
        s.assign(nk, 0.0);
        double mx = -std::numeric_limits<double>::infinity();
        for (std::size_t j = 0; j < nk; ++j) {
          const float* kj = &k[((cu_k[seq] + j) * hkv + kvh) * d];
          double dot = 0;
          for (std::size_t c = 0; c < d; ++c) dot += double(qi[c]) * kj[c];
          s[j] = dot * sc;
          mx = std::max(mx, s[j]);
        }
        double sum = 0;
        for (auto& x : s) sum += (x = std::exp(x - mx));
        double* oi = &out[((cu_q[seq] + i) * h + head) * d];
        for (std::size_t j = 0; j < nk; ++j) {
          const float* vj = &v[((cu_k[seq] + j) * hkv + kvh) * d];
          for (std::size_t c = 0; c < d; ++c) oi[c] += s[j] / sum * vj[c];
        }
      }
    }
  }
  return out;
}

namespace {

// The unfused baseline: per (sequence, head) the full score matrix is written, then a softmax
// pass, then P·V — three sweeps over Sq×Sk memory, as three separate kernels would do.
class NaiveAttention final : public HostInstance {
 public:
  explicit NaiveAttention(const AttentionProblem& p) : HostInstance(p.q.size()), p_(p) {}
  void run() override {
    const std::size_t h = p_.h, hkv = p_.hkv, d = p_.d, group = h / hkv;
    const float sc = p_.scale();
    for (std::size_t seq = 0; seq + 1 < p_.cu_q.size(); ++seq) {
      const std::size_t lq = p_.cu_q[seq + 1] - p_.cu_q[seq], lk = p_.cu_k[seq + 1] - p_.cu_k[seq];
      scores_.resize(lq * lk);
      for (std::size_t head = 0; head < h; ++head) {
        const std::size_t kvh = head / group;
        for (std::size_t i = 0; i < lq; ++i) {  // S = Q Kᵀ · scale, masked
          const float* qi = &p_.q[((p_.cu_q[seq] + i) * h + head) * d];
          const std::size_t nk = visible_keys(p_.causal, i, lq, lk);
          for (std::size_t j = 0; j < lk; ++j) {
            const float* kj = &p_.k[((p_.cu_k[seq] + j) * hkv + kvh) * d];
            float dot = 0;
            for (std::size_t c = 0; c < d; ++c) dot += qi[c] * kj[c];
            scores_[i * lk + j] = j < nk ? dot * sc : -std::numeric_limits<float>::infinity();
          }
        }
        for (std::size_t i = 0; i < lq; ++i) {  // P = softmax(S), row by row
          float* row = &scores_[i * lk];
          const float mx = *std::max_element(row, row + lk);
          float sum = 0;
          for (std::size_t j = 0; j < lk; ++j) sum += (row[j] = std::exp(row[j] - mx));
          for (std::size_t j = 0; j < lk; ++j) row[j] /= sum;
        }
        for (std::size_t i = 0; i < lq; ++i) {  // O = P V
          float* oi = &out_[((p_.cu_q[seq] + i) * h + head) * d];
          std::fill(oi, oi + d, 0.0f);
          for (std::size_t j = 0; j < lk; ++j) {
            const float pij = scores_[i * lk + j];
            const float* vj = &p_.v[((p_.cu_k[seq] + j) * hkv + kvh) * d];
            for (std::size_t c = 0; c < d; ++c) oi[c] += pij * vj[c];
          }
          for (std::size_t c = 0; c < d; ++c) oi[c] = round_to(p_.dtype, oi[c]);
        }
      }
    }
  }

 private:
  const AttentionProblem& p_;
  std::vector<float> scores_;
};

// Flash-style (the shared kernel): a block of query rows sweeps key tiles once; scores never
// leave a small tile.
class BlockedAttention final : public HostInstance {
 public:
  explicit BlockedAttention(const AttentionProblem& p) : HostInstance(p.q.size()), p_(p) {}
  void run() override {
    const std::size_t qs = p_.h * p_.d, ks = p_.hkv * p_.d;
    for (std::size_t seq = 0; seq + 1 < p_.cu_q.size(); ++seq) {
      const std::size_t q0 = p_.cu_q[seq], k0 = p_.cu_k[seq];
      const kernels::AttentionShape shape{
          p_.h, p_.hkv, p_.d, p_.cu_q[seq + 1] - q0, p_.cu_k[seq + 1] - k0, p_.causal, p_.scale()};
      kernels::attention_forward_blocked(shape, {&p_.q[q0 * qs], qs}, {&p_.k[k0 * ks], ks},
                                         {&p_.v[k0 * ks], ks}, {&out_[q0 * qs], qs});
    }
    round_all(p_.dtype, out_);
  }

 private:
  const AttentionProblem& p_;
};

}  // namespace

PERFGATE_FAMILY(attention, AttentionProblem) {
  family.describe("attention forward, packed variable-length layout, grouped-query heads")
      .int_axis("b", {2})
      .int_axis("h", {8})
      .int_axis("hkv", {8, 2})
      .int_axis("sq", {512, 2048})
      .int_axis("sk", {512, 2048})
      .int_axis("d", {64, 128})
      .bool_axis("causal")
      .bool_axis("varlen")
      .string_axis("dtype", {"bf16"})
      .filter([](const CaseParams& p) {
        const bool varlen = p.has("varlen") && p.flag("varlen");
        if (varlen && p.integer("sq") != p.integer("sk")) return false;  // varlen: sk = sq
        if (p.flag("causal") && p.integer("sq") > p.integer("sk")) return false;
        return p.integer("hkv") <= p.integer("h") && p.integer("h") % p.integer("hkv") == 0;
      })
      .workload(attention_workload);
}

PERFGATE_IMPLEMENTATION(attention, AttentionProblem, cpu, naive) {
  return std::make_unique<NaiveAttention>(problem);
}
PERFGATE_IMPLEMENTATION(attention, AttentionProblem, cpu, blocked) {
  return std::make_unique<BlockedAttention>(problem);
}

}  // namespace perfgate::microbench

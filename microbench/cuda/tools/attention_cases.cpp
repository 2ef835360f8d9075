// Attention family: cuDNN SDPA (forward and backward), the unfused cuBLAS+softmax baseline
// and the own flash forward kernel, each checked against a double-precision host reference
// (GQA, causal where supported), then timed at head_dim 128, sequences 4k-16k.
#include <cmath>

#include "check_context.hpp"
#include "perfgate/cuda/attention.hpp"
#include "perfgate/cuda/check.hpp"
#include "perfgate/cuda/fused_ops.hpp"
#include "perfgate/cuda/host_data.hpp"

namespace perfgate::cuda::check {
namespace {

std::size_t q_elements(AttentionShape s) {
  return std::size_t(s.batch * s.seq_q * s.heads * s.head_dim);
}
std::size_t kv_elements(AttentionShape s) {
  return std::size_t(s.batch * s.seq_kv * s.kv_heads * s.head_dim);
}

struct HostAttention {
  std::vector<float> q, k, v, d_o;
};

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

enum class Impl { cudnn, unfused, flash };
const char* name(Impl i) {
  return i == Impl::cudnn ? "cudnn_sdpa" : (i == Impl::unfused ? "unfused" : "flash");
}

struct DeviceAttention {
  DeviceBuffer<unsigned char> q, k, v, o, d_o, dq, dk, dv;
  DeviceBuffer<float> stats;
  DeviceAttention(AttentionShape s, Precision p, bool backward)
      : q(q_elements(s) * element_bytes(p)),
        k(kv_elements(s) * element_bytes(p)),
        v(kv_elements(s) * element_bytes(p)),
        o(q_elements(s) * element_bytes(p)),
        stats(std::size_t(s.batch * s.heads * s.seq_q)) {
    if (backward) {
      d_o = DeviceBuffer<unsigned char>(q.bytes());
      dq = DeviceBuffer<unsigned char>(q.bytes());
      dk = DeviceBuffer<unsigned char>(k.bytes());
      dv = DeviceBuffer<unsigned char>(v.bytes());
    }
  }
};

// A forward implementation bound to its buffers: returns the launch body.
Launch forward_launch(Impl impl, AttentionShape s, Precision p, DeviceAttention& d,
                      std::unique_ptr<CudnnSdpa>& cudnn,
                      std::unique_ptr<UnfusedAttention>& unfused) {
  switch (impl) {
    case Impl::cudnn:
      cudnn = std::make_unique<CudnnSdpa>(s, p, CudnnSdpa::Direction::forward);
      return [&, s](cudaStream_t st, int) {
        cudnn->forward(d.q.get(), d.k.get(), d.v.get(), d.o.get(), d.stats.get(), st);
      };
    case Impl::unfused:
      unfused =
          std::make_unique<UnfusedAttention>(s, p, d.q.get(), d.k.get(), d.v.get(), d.o.get());
      return [&](cudaStream_t st, int) { unfused->run(st); };
    case Impl::flash: {
      std::string why;
      if (!flash_supported(s, p, &why)) throw InputError(why);
      return [&, s, p](cudaStream_t st, int) {
        flash_attention_forward(p, s, d.q.get(), d.k.get(), d.v.get(), d.o.get(), st);
      };
    }
  }
  return {};
}

std::string attention_shape_text(AttentionShape s) {
  return shape_text({{"b", s.batch},
                     {"h", s.heads},
                     {"hkv", s.kv_heads},
                     {"s", s.seq_q},
                     {"d", s.head_dim}}) +
         (s.causal ? " causal" : "");
}

// cuDNN's SDPA operation is "cudnn_sdpa"; the composite graph it falls back to, "cudnn_graph".
void name_cudnn_path(Row& row, const CudnnSdpa* cudnn) {
  if (cudnn != nullptr && cudnn->composite()) row.variant = "cudnn_graph";
}

void check_forward(Context& ctx, Impl impl, AttentionShape s, Precision p) {
  Row row{"attention_fwd", name(impl), attention_shape_text(s), to_string(p)};
  guarded(ctx, row, [&] {
    HostAttention in{seeded_values(q_elements(s), 31, p),
                     seeded_values(kv_elements(s), 32, p),
                     seeded_values(kv_elements(s), 33, p),
                     {}};
    DeviceAttention d(s, p, false);
    d.q.upload(to_storage(in.q, p));
    d.k.upload(to_storage(in.k, p));
    d.v.upload(to_storage(in.v, p));
    std::unique_ptr<CudnnSdpa> cudnn;
    std::unique_ptr<UnfusedAttention> unfused;
    const Launch launch = forward_launch(impl, s, p, d, cudnn, unfused);
    name_cudnn_path(row, cudnn.get());
    launch(ctx.stream(), 0);
    PERFGATE_CUDA_CHECK(cudaStreamSynchronize(ctx.stream()));
    ctx.check_row(row, relative_error(from_storage(d.o.download(), p), forward_reference(in, s)),
                  error_bound(p));
  });
}

void check_backward(Context& ctx, AttentionShape s, Precision p) {
  Row row{"attention_bwd", "cudnn_sdpa", attention_shape_text(s), to_string(p)};
  guarded(ctx, row, [&] {
    HostAttention in{seeded_values(q_elements(s), 41, p), seeded_values(kv_elements(s), 42, p),
                     seeded_values(kv_elements(s), 43, p), seeded_values(q_elements(s), 44, p)};
    DeviceAttention d(s, p, true);
    d.q.upload(to_storage(in.q, p));
    d.k.upload(to_storage(in.k, p));
    d.v.upload(to_storage(in.v, p));
    d.d_o.upload(to_storage(in.d_o, p));
    CudnnSdpa fwd(s, p, CudnnSdpa::Direction::forward), bwd(s, p, CudnnSdpa::Direction::backward);
    name_cudnn_path(row, &bwd);
    fwd.forward(d.q.get(), d.k.get(), d.v.get(), d.o.get(), d.stats.get(), ctx.stream());
    bwd.backward(d.q.get(), d.k.get(), d.v.get(), d.o.get(), d.d_o.get(), d.stats.get(), d.dq.get(),
                 d.dk.get(), d.dv.get(), ctx.stream());
    PERFGATE_CUDA_CHECK(cudaStreamSynchronize(ctx.stream()));
    auto out = from_storage(d.dq.download(), p);
    for (auto* buffer : {&d.dk, &d.dv}) {
      const auto part = from_storage(buffer->download(), p);
      out.insert(out.end(), part.begin(), part.end());
    }
    ctx.check_row(row, relative_error(out, backward_reference(in, s)), 2 * error_bound(p));
  });
}

void time_forward(Context& ctx, Impl impl, AttentionShape s, Precision p) {
  Row row{"attention_fwd", name(impl), attention_shape_text(s), to_string(p)};
  guarded(ctx, row, [&] {
    DeviceAttention d(s, p, false);
    fill_random(p, d.q.get(), q_elements(s), 51, ctx.stream());
    fill_random(p, d.k.get(), kv_elements(s), 52, ctx.stream());
    fill_random(p, d.v.get(), kv_elements(s), 53, ctx.stream());
    std::unique_ptr<CudnnSdpa> cudnn;
    std::unique_ptr<UnfusedAttention> unfused;
    const Launch launch = forward_launch(impl, s, p, d, cudnn, unfused);
    name_cudnn_path(row, cudnn.get());
    ctx.time_row(row, launch, attention_forward_traffic(s, p), Bound::compute);
  });
}

void time_backward(Context& ctx, AttentionShape s, Precision p) {
  Row row{"attention_bwd", "cudnn_sdpa", attention_shape_text(s), to_string(p)};
  guarded(ctx, row, [&] {
    DeviceAttention d(s, p, true);
    fill_random(p, d.q.get(), q_elements(s), 61, ctx.stream());
    fill_random(p, d.k.get(), kv_elements(s), 62, ctx.stream());
    fill_random(p, d.v.get(), kv_elements(s), 63, ctx.stream());
    fill_random(p, d.d_o.get(), q_elements(s), 64, ctx.stream());
    CudnnSdpa fwd(s, p, CudnnSdpa::Direction::forward), bwd(s, p, CudnnSdpa::Direction::backward);
    name_cudnn_path(row, &bwd);
    fwd.forward(d.q.get(), d.k.get(), d.v.get(), d.o.get(), d.stats.get(), ctx.stream());
    ctx.time_row(
        row,
        [&](cudaStream_t st, int) {
          bwd.backward(d.q.get(), d.k.get(), d.v.get(), d.o.get(), d.d_o.get(), d.stats.get(),
                       d.dq.get(), d.dk.get(), d.dv.get(), st);
        },
        attention_backward_traffic(s, p), Bound::compute);
  });
}

}  // namespace

void run_attention_cases(Context& ctx) {
  if (ctx.wants("attention") && !ctx.spread_only()) {
    const AttentionShape gqa{1, 4, 2, 128, 128, 128, false};
    AttentionShape causal = gqa;
    causal.causal = true;
    AttentionShape mha = gqa;
    mha.kv_heads = 4;
    for (Impl impl : {Impl::cudnn, Impl::unfused, Impl::flash}) {
      check_forward(ctx, impl, gqa, Precision::bf16);
      check_forward(ctx, impl, causal, Precision::bf16);
    }
    check_forward(ctx, Impl::cudnn, mha, Precision::bf16);
    check_forward(ctx, Impl::flash, gqa, Precision::f16);
    AttentionShape d64 = gqa;
    d64.head_dim = 64;
    check_forward(ctx, Impl::flash, d64, Precision::bf16);
    check_backward(ctx, mha, Precision::bf16);
    check_backward(ctx, gqa, Precision::bf16);
    AttentionShape mha_causal = mha;
    mha_causal.causal = true;
    check_backward(ctx, mha_causal, Precision::bf16);
  }
  if (!ctx.wants_timing("attention", true)) return;
  const Precision p = Precision::bf16;
  for (std::int64_t seq : {4096, 8192, 16384}) {
    const AttentionShape s{32768 / seq, 16, 16, seq, seq, 128, false};
    const bool spread_case = seq == 8192;
    if (ctx.spread_only() && !spread_case) continue;
    time_forward(ctx, Impl::cudnn, s, p);
    time_forward(ctx, Impl::flash, s, p);
    if (ctx.spread_only()) continue;
    if (seq == 4096) time_forward(ctx, Impl::unfused, s, p);
    if (seq <= 8192) time_backward(ctx, s, p);
  }
  if (ctx.spread_only()) return;
  AttentionShape causal{4, 16, 16, 8192, 8192, 128, true};
  time_forward(ctx, Impl::cudnn, causal, p);
  time_forward(ctx, Impl::flash, causal, p);
  time_backward(ctx, AttentionShape{8, 16, 16, 4096, 4096, 128, true}, p);
  time_forward(ctx, Impl::unfused, AttentionShape{8, 16, 16, 4096, 4096, 128, true}, p);
  AttentionShape gqa{4, 32, 8, 8192, 8192, 128, false};
  time_forward(ctx, Impl::cudnn, gqa, p);
  time_forward(ctx, Impl::flash, gqa, p);
}

}  // namespace perfgate::cuda::check

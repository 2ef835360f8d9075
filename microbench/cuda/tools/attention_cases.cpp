// Attention family: cuDNN SDPA (forward and backward), the unfused cuBLAS+softmax baseline
// and the own flash forward kernel (64- and 128-query tiles), each checked against a
// double-precision host reference (GQA, causal where supported), then timed at head_dim 128,
// sequences 4k-16k.
#include "attention_buffers.hpp"
#include "attention_reference.hpp"
#include "check_context.hpp"
#include "perfgate/cuda/attention.hpp"
#include "perfgate/cuda/check.hpp"
#include "perfgate/cuda/fused_ops.hpp"
#include "perfgate/cuda/host_data.hpp"

namespace perfgate::cuda::check {
namespace {

// flash_q128: the 128-query-tile kernel, timed beside the 64-query one until a GPU run says
// which the registry's `flash` should be.
enum class Impl { cudnn, unfused, flash, flash_q128 };
const char* name(Impl i) {
  static constexpr const char* names[] = {"cudnn_sdpa", "unfused", "flash", "flash_q128"};
  return names[static_cast<int>(i)];
}

// Buffers sized for a uniform batch.
AttentionBuffers device_buffers(AttentionShape s, Precision p, bool backward) {
  return {q_elements(s), kv_elements(s), std::size_t(s.batch * s.heads * s.seq_q), p, backward};
}

// A forward implementation bound to its buffers: returns the launch body.
Launch forward_launch(Impl impl, AttentionShape s, Precision p, AttentionBuffers& d,
                      std::unique_ptr<CudnnSdpa>& cudnn,
                      std::unique_ptr<UnfusedAttention>& unfused) {
  switch (impl) {
    case Impl::cudnn:
      cudnn = std::make_unique<CudnnSdpa>(s, p, CudnnSdpa::Direction::forward);
      return [&](cudaStream_t st, int) { d.forward(*cudnn, st); };
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
    case Impl::flash_q128: {
      std::string why;
      if (!flash_wide_supported(s, p, &why)) throw InputError(why);
      return [&, s, p](cudaStream_t st, int) {
        flash_attention_forward_wide(p, s, d.q.get(), d.k.get(), d.v.get(), d.o.get(), st);
      };
    }
  }
  return {};
}

// "b=1 h=4 hkv=2 s=128 d=128 causal"; with unequal lengths s is the query length and skv follows
// it ("s=256 skv=384"): a causal mask depends on both.
std::string attention_shape_text(AttentionShape s) {
  std::string text =
      shape_text({{"b", s.batch}, {"h", s.heads}, {"hkv", s.kv_heads}, {"s", s.seq_q}});
  if (s.seq_kv != s.seq_q) text += ' ' + shape_text({{"skv", s.seq_kv}});
  return text + ' ' + shape_text({{"d", s.head_dim}}) + (s.causal ? " causal" : "");
}

void check_forward(Context& ctx, Impl impl, AttentionShape s, Precision p) {
  Row row{"attention_fwd", name(impl), attention_shape_text(s), to_string(p)};
  guarded(ctx, row, [&] {
    HostAttention in{seeded_values(q_elements(s), 31, p),
                     seeded_values(kv_elements(s), 32, p),
                     seeded_values(kv_elements(s), 33, p),
                     {}};
    AttentionBuffers d = device_buffers(s, p, false);
    d.upload(in);
    std::unique_ptr<CudnnSdpa> cudnn;
    std::unique_ptr<UnfusedAttention> unfused;
    const Launch launch = forward_launch(impl, s, p, d, cudnn, unfused);
    if (cudnn) row.variant = cudnn_variant(*cudnn);
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
    AttentionBuffers d = device_buffers(s, p, true);
    d.upload(in);
    CudnnSdpa fwd(s, p, CudnnSdpa::Direction::forward), bwd(s, p, CudnnSdpa::Direction::backward);
    row.variant = cudnn_variant(bwd);
    const auto gradients = d.forward_backward(fwd, bwd, ctx.stream());
    ctx.check_row(row, relative_error(gradients, backward_reference(in, s)), 2 * error_bound(p));
  });
}

void time_forward(Context& ctx, Impl impl, AttentionShape s, Precision p) {
  Row row{"attention_fwd", name(impl), attention_shape_text(s), to_string(p)};
  guarded(ctx, row, [&] {
    AttentionBuffers d = device_buffers(s, p, false);
    d.randomize(51, ctx.stream());
    std::unique_ptr<CudnnSdpa> cudnn;
    std::unique_ptr<UnfusedAttention> unfused;
    const Launch launch = forward_launch(impl, s, p, d, cudnn, unfused);
    if (cudnn) row.variant = cudnn_variant(*cudnn);
    ctx.time_row(row, launch, attention_forward_traffic(s, p), Bound::compute);
  });
}

void time_backward(Context& ctx, AttentionShape s, Precision p) {
  Row row{"attention_bwd", "cudnn_sdpa", attention_shape_text(s), to_string(p)};
  guarded(ctx, row, [&] {
    AttentionBuffers d = device_buffers(s, p, true);
    d.randomize(61, ctx.stream());
    CudnnSdpa fwd(s, p, CudnnSdpa::Direction::forward), bwd(s, p, CudnnSdpa::Direction::backward);
    row.variant = cudnn_variant(bwd);
    d.forward(fwd, ctx.stream());
    ctx.time_row(
        row, [&](cudaStream_t st, int) { d.backward(bwd, st); }, attention_backward_traffic(s, p),
        Bound::compute);
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
    for (Impl impl : {Impl::cudnn, Impl::unfused, Impl::flash, Impl::flash_q128}) {
      check_forward(ctx, impl, gqa, Precision::bf16);
      check_forward(ctx, impl, causal, Precision::bf16);
    }
    check_forward(ctx, Impl::cudnn, mha, Precision::bf16);
    AttentionShape d64 = gqa;
    d64.head_dim = 64;
    AttentionShape causal_long = causal;  // several K/V tiles and query blocks, unequal lengths
    causal_long.seq_q = 256;
    causal_long.seq_kv = 384;
    // The unfused path too: at Sq = Skv top-left and bottom-right mask alignment agree, so only
    // causal_long tells them apart.
    for (Impl impl : {Impl::unfused, Impl::flash, Impl::flash_q128}) {
      check_forward(ctx, impl, gqa, Precision::f16);
      check_forward(ctx, impl, d64, Precision::bf16);
      check_forward(ctx, impl, causal_long, Precision::bf16);
    }
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
    time_forward(ctx, Impl::flash_q128, s, p);
    if (seq == 4096) time_forward(ctx, Impl::unfused, s, p);
    if (seq <= 8192) time_backward(ctx, s, p);
  }
  if (ctx.spread_only()) return;
  AttentionShape causal{4, 16, 16, 8192, 8192, 128, true};
  time_forward(ctx, Impl::cudnn, causal, p);
  time_forward(ctx, Impl::flash, causal, p);
  time_forward(ctx, Impl::flash_q128, causal, p);
  time_backward(ctx, AttentionShape{8, 16, 16, 4096, 4096, 128, true}, p);
  time_forward(ctx, Impl::unfused, AttentionShape{8, 16, 16, 4096, 4096, 128, true}, p);
  AttentionShape gqa{4, 32, 8, 8192, 8192, 128, false};
  time_forward(ctx, Impl::cudnn, gqa, p);
  time_forward(ctx, Impl::flash, gqa, p);
  time_forward(ctx, Impl::flash_q128, gqa, p);
}

}  // namespace perfgate::cuda::check

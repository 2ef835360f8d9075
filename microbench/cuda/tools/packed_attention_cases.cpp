// Packed variable-length attention (the "THD" layout of cu_seqlens kernels): cuDNN SDPA through
// its ragged offsets and padding mask (forward and backward) and the flash kernel's packed form,
// each checked sequence by sequence against the host reference, then timed on a batch of
// training-sized sequences. Outputs are poisoned (NaN) first, so a row left unwritten fails, and
// a padded row written over the next sequence's rows fails that sequence's check.
#include <algorithm>

#include "attention_buffers.hpp"
#include "attention_reference.hpp"
#include "check_context.hpp"
#include "perfgate/cuda/attention.hpp"
#include "perfgate/cuda/check.hpp"
#include "perfgate/cuda/fused_ops.hpp"
#include "perfgate/cuda/host_data.hpp"

namespace perfgate::cuda::check {
namespace {

// Sequences with as many keys as queries each, as packed training batches are.
struct PackedBatch {
  AttentionShape bound;  // batch = the sequences, seq_q = seq_kv = the longest
  PackedSequences rows;

  PackedBatch(const std::vector<std::int64_t>& lengths, std::int64_t heads, std::int64_t kv_heads,
              std::int64_t head_dim, bool causal) {
    const std::int64_t longest = *std::max_element(lengths.begin(), lengths.end());
    bound = {std::int64_t(lengths.size()), heads, kv_heads, longest, longest, head_dim, causal};
    rows.cu_q = {0};
    for (const std::int64_t length : lengths) rows.cu_q.push_back(rows.cu_q.back() + length);
    rows.cu_kv = rows.cu_q;
  }
  std::int64_t q_width() const { return bound.heads * bound.head_dim; }
  std::int64_t kv_width() const { return bound.kv_heads * bound.head_dim; }
  std::size_t q_count() const { return std::size_t(rows.cu_q.back() * q_width()); }
  std::size_t kv_count() const { return std::size_t(rows.cu_kv.back() * kv_width()); }
  // Sequence i alone, as a batch of one.
  AttentionShape sequence(std::size_t i) const {
    AttentionShape s = bound;
    s.batch = 1;
    s.seq_q = s.seq_kv = rows.cu_q[i + 1] - rows.cu_q[i];
    return s;
  }
};

std::string packed_shape_text(const PackedBatch& b) {
  return shape_text({{"b", b.bound.batch},
                     {"h", b.bound.heads},
                     {"hkv", b.bound.kv_heads},
                     {"smax", b.bound.seq_q},
                     {"d", b.bound.head_dim}}) +
         " packed" + (b.bound.causal ? " causal" : "");
}

// Sequence i's rows of a packed [rows, width] tensor.
std::vector<float> rows_of(const std::vector<float>& t, const std::vector<std::int64_t>& cu,
                           std::size_t i, std::int64_t width) {
  return {t.begin() + cu[i] * width, t.begin() + cu[i + 1] * width};
}

HostAttention sequence_inputs(const HostAttention& in, const PackedBatch& b, std::size_t i) {
  HostAttention s{rows_of(in.q, b.rows.cu_q, i, b.q_width()),
                  rows_of(in.k, b.rows.cu_kv, i, b.kv_width()),
                  rows_of(in.v, b.rows.cu_kv, i, b.kv_width()),
                  {}};
  if (!in.d_o.empty()) s.d_o = rows_of(in.d_o, b.rows.cu_q, i, b.q_width());
  return s;
}

std::vector<double> packed_forward_reference(const HostAttention& in, const PackedBatch& b) {
  std::vector<double> o;
  for (std::size_t i = 0; i < std::size_t(b.bound.batch); ++i) {
    const auto part = forward_reference(sequence_inputs(in, b, i), b.sequence(i));
    o.insert(o.end(), part.begin(), part.end());
  }
  return o;
}

// dQ | dK | dV, each in its packed layout.
std::vector<double> packed_backward_reference(const HostAttention& in, const PackedBatch& b) {
  std::vector<double> dq, dk, dv;
  for (std::size_t i = 0; i < std::size_t(b.bound.batch); ++i) {
    const AttentionShape s = b.sequence(i);
    const auto part = backward_reference(sequence_inputs(in, b, i), s);
    const auto q_end = part.begin() + std::ptrdiff_t(q_elements(s));
    const auto k_end = q_end + std::ptrdiff_t(kv_elements(s));
    dq.insert(dq.end(), part.begin(), q_end);
    dk.insert(dk.end(), q_end, k_end);
    dv.insert(dv.end(), k_end, part.end());
  }
  dq.insert(dq.end(), dk.begin(), dk.end());
  dq.insert(dq.end(), dv.begin(), dv.end());
  return dq;
}

// The packed batch's buffers, its row offsets for the flash kernel, and outputs poisoned.
struct DevicePacked : AttentionBuffers {
  DeviceBuffer<std::int32_t> cu_q, cu_kv;

  DevicePacked(const PackedBatch& b, Precision p, bool backward)
      : AttentionBuffers(b.q_count(), b.kv_count(),
                         std::size_t(b.bound.batch * b.bound.heads * b.bound.seq_q), p, backward),
        cu_q(std::vector<std::int32_t>(b.rows.cu_q.begin(), b.rows.cu_q.end())),
        cu_kv(std::vector<std::int32_t>(b.rows.cu_kv.begin(), b.rows.cu_kv.end())) {
    // Every output NaN until written (0xFF bytes are NaN in bf16 and f16).
    for (auto* out : {&o, &dq, &dk, &dv})
      if (out->get() != nullptr) out->fill(0xFF);
  }
};

enum class Impl { cudnn, flash };

// The row's first name; a cuDNN row is renamed after its plan (cudnn_variant).
const char* name(Impl impl) {
  return impl == Impl::flash ? "flash" : "cudnn_sdpa";
}

// The forward launch of `impl` on the packed buffers; a cuDNN plan is kept in `cudnn` and names
// the row's variant.
Launch forward_launch(Impl impl, const PackedBatch& b, Precision p, DevicePacked& d, Row& row,
                      std::unique_ptr<CudnnSdpa>& cudnn) {
  if (impl == Impl::flash) {
    std::string why;
    if (!flash_supported(b.bound, p, &why, true)) throw InputError(why);
    return [&, s = b.bound, p](cudaStream_t st, int) {
      flash_attention_forward(p, s, d.q.get(), d.k.get(), d.v.get(), d.o.get(), st,
                              {d.cu_q.get(), d.cu_kv.get()});
    };
  }
  cudnn = std::make_unique<CudnnSdpa>(b.bound, p, CudnnSdpa::Direction::forward, b.rows);
  row.variant = cudnn_variant(*cudnn);
  return [&](cudaStream_t st, int) { d.forward(*cudnn, st); };
}

void check_forward(Context& ctx, Impl impl, const PackedBatch& b, Precision p) {
  Row row{"attention_fwd", name(impl), packed_shape_text(b), to_string(p)};
  guarded(ctx, row, [&] {
    const HostAttention in{seeded_values(b.q_count(), 71, p),
                           seeded_values(b.kv_count(), 72, p),
                           seeded_values(b.kv_count(), 73, p),
                           {}};
    DevicePacked d(b, p, false);
    d.upload(in);
    std::unique_ptr<CudnnSdpa> cudnn;
    const Launch launch = forward_launch(impl, b, p, d, row, cudnn);
    launch(ctx.stream(), 0);
    PERFGATE_CUDA_CHECK(cudaStreamSynchronize(ctx.stream()));
    ctx.check_row(row,
                  relative_error(from_storage(d.o.download(), p), packed_forward_reference(in, b)),
                  error_bound(p));
  });
}

void check_backward(Context& ctx, const PackedBatch& b, Precision p) {
  Row row{"attention_bwd", "cudnn_sdpa", packed_shape_text(b), to_string(p)};
  guarded(ctx, row, [&] {
    const HostAttention in{seeded_values(b.q_count(), 81, p), seeded_values(b.kv_count(), 82, p),
                           seeded_values(b.kv_count(), 83, p), seeded_values(b.q_count(), 84, p)};
    DevicePacked d(b, p, true);
    d.upload(in);
    CudnnSdpa fwd(b.bound, p, CudnnSdpa::Direction::forward, b.rows);
    CudnnSdpa bwd(b.bound, p, CudnnSdpa::Direction::backward, b.rows);
    row.variant = cudnn_variant(bwd);
    const auto gradients = d.forward_backward(fwd, bwd, ctx.stream());
    ctx.check_row(row, relative_error(gradients, packed_backward_reference(in, b)),
                  2 * error_bound(p));
  });
}

// The batch's work: the sum of its sequences' (what a cu_seqlens kernel does, no padding).
Traffic packed_traffic(const PackedBatch& b, Precision p, bool backward) {
  Traffic total;
  for (std::size_t i = 0; i < std::size_t(b.bound.batch); ++i) {
    const Traffic t = backward ? attention_backward_traffic(b.sequence(i), p)
                               : attention_forward_traffic(b.sequence(i), p);
    total.flops += t.flops;
    total.bytes += t.bytes;
  }
  return total;
}

void time_forward(Context& ctx, Impl impl, const PackedBatch& b, Precision p) {
  Row row{"attention_fwd", name(impl), packed_shape_text(b), to_string(p)};
  guarded(ctx, row, [&] {
    DevicePacked d(b, p, false);
    d.randomize(91, ctx.stream());
    std::unique_ptr<CudnnSdpa> cudnn;
    const Launch launch = forward_launch(impl, b, p, d, row, cudnn);
    ctx.time_row(row, launch, packed_traffic(b, p, false), Bound::compute);
  });
}

void time_backward(Context& ctx, const PackedBatch& b, Precision p) {
  Row row{"attention_bwd", "cudnn_sdpa", packed_shape_text(b), to_string(p)};
  guarded(ctx, row, [&] {
    DevicePacked d(b, p, true);
    d.randomize(94, ctx.stream());
    CudnnSdpa fwd(b.bound, p, CudnnSdpa::Direction::forward, b.rows);
    CudnnSdpa bwd(b.bound, p, CudnnSdpa::Direction::backward, b.rows);
    row.variant = cudnn_variant(bwd);
    d.forward(fwd, ctx.stream());
    ctx.time_row(
        row, [&](cudaStream_t st, int) { d.backward(bwd, st); }, packed_traffic(b, p, true),
        Bound::compute);
  });
}

}  // namespace

void run_packed_attention_cases(Context& ctx) {
  const Precision p = Precision::bf16;
  if (ctx.wants("attention")) {
    // Lengths that are not multiples of 64 or of each other: partial tiles at every end.
    const std::vector<std::int64_t> lengths{100, 37, 128, 65};
    for (const bool causal : {false, true}) {
      const PackedBatch gqa(lengths, 4, 2, 128, causal);
      check_forward(ctx, Impl::cudnn, gqa, p);
      check_forward(ctx, Impl::flash, gqa, p);
      check_backward(ctx, gqa, p);
    }
    check_forward(ctx, Impl::flash, PackedBatch(lengths, 4, 4, 64, true), Precision::f16);
  }
  if (!ctx.wants_timing("attention", false)) return;
  // 32k tokens in 8 sequences of 1k-8k, the shape of a packed pretraining batch.
  const std::vector<std::int64_t> lengths{8192, 3072, 5120, 1024, 7168, 2048, 4096, 2048};
  for (const bool causal : {false, true}) {
    const PackedBatch batch(lengths, 16, 16, 128, causal);
    time_forward(ctx, Impl::cudnn, batch, p);
    time_forward(ctx, Impl::flash, batch, p);
    time_backward(ctx, batch, p);
  }
}

}  // namespace perfgate::cuda::check

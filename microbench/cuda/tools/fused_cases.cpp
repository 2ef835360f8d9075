// Fused memory-bound families (RMSNorm/LayerNorm with residual, softmax, bias+GeLU, SwiGLU,
// RoPE, AdamW): each checked against a double-precision host reference in its fused and
// unfused forms, then timed on tensors >= 256 MiB (hot) and on a small one (graph replay; cold,
// L2 flushed and inputs rotated).
#include <algorithm>
#include <cmath>
#include <functional>
#include <memory>
#include <optional>

#include "check_context.hpp"
#include "perfgate/cuda/check.hpp"
#include "perfgate/cuda/fused_ops.hpp"
#include "perfgate/cuda/host_data.hpp"

namespace perfgate::cuda::check {
namespace {

constexpr float kEps = 1e-5f;
constexpr float kTheta = 10000.0f;

using Ptrs = std::vector<void*>;  // inputs..., output, scratch

// One row-shaped family: input sizes, launchers and reference, all in terms of a RowShape.
// The forms a family runs in: its fused kernel, for the norms also with the row spread over the
// most threads (RowBlock::most_threads: checked, and timed hot and replayed beside the default;
// the cold rows and the run-to-run spread keep the default only), and its unfused baseline.
enum class Form { fused, fused_most_threads, unfused };

const char* variant_name(Form form) {
  switch (form) {
    case Form::fused:
      return "fused";
    case Form::fused_most_threads:
      return "fused_most_threads";
    case Form::unfused:
      return "unfused";
  }
  return "?";
}

struct RowFamily {
  std::string name;
  std::function<std::vector<std::int64_t>(RowShape)> input_sizes;  // elements per input
  std::function<void(Precision, Form, const Ptrs&, RowShape, cudaStream_t)> launch;
  std::function<std::vector<double>(const std::vector<std::vector<float>>&, RowShape, Precision)>
      reference;
  std::function<Traffic(RowShape, Precision)> traffic;
  std::int64_t heads = 1;        // RoPE: rows = tokens * heads
  bool block_per_row = false;    // one block per row, sized to the row (norms, softmax)
  bool writes_residual = false;  // the norms also store h = x + r to the scratch tensor
  std::vector<Form> forms{Form::fused, Form::unfused};
};

double silu(double x) {
  return x / (1.0 + std::exp(-x));
}
double gelu(double x) {
  return 0.5 * x * (1.0 + std::tanh(0.7978845608028654 * (x + 0.044715 * x * x * x)));
}

std::vector<double> norm_reference(const std::vector<std::vector<float>>& in, RowShape s,
                                   Precision p, bool layernorm) {
  std::vector<double> y(std::size_t(s.rows * s.hidden));
  std::vector<double> h(std::size_t(s.hidden));
  for (std::int64_t r = 0; r < s.rows; ++r) {
    double sum = 0, sq = 0;
    for (std::int64_t c = 0; c < s.hidden; ++c) {
      const std::size_t i = std::size_t(r * s.hidden + c);
      h[std::size_t(c)] = round_to(p, in[0][i] + in[1][i]);
      sum += h[std::size_t(c)];
    }
    const double mean = layernorm ? sum / double(s.hidden) : 0.0;
    for (double v : h) sq += (v - mean) * (v - mean);
    const double inv = 1.0 / std::sqrt(sq / double(s.hidden) + kEps);
    for (std::int64_t c = 0; c < s.hidden; ++c)
      y[std::size_t(r * s.hidden + c)] = (h[std::size_t(c)] - mean) * inv * in[2][std::size_t(c)] +
                                         (layernorm ? in[3][std::size_t(c)] : 0.0);
  }
  return y;
}

std::vector<RowFamily> row_families() {
  std::vector<RowFamily> f;
  auto norm = [](bool layernorm) {
    RowFamily fam;
    fam.name = layernorm ? "layernorm_residual" : "rmsnorm_residual";
    fam.input_sizes = [layernorm](RowShape s) {
      std::vector<std::int64_t> sizes{s.rows * s.hidden, s.rows * s.hidden, s.hidden};
      if (layernorm) sizes.push_back(s.hidden);
      return sizes;
    };
    fam.launch = [layernorm](Precision p, Form form, const Ptrs& d, RowShape s, cudaStream_t st) {
      const std::size_t out = layernorm ? 4 : 3;
      const NormArgs a{d[0], d[1], d[2], layernorm ? d[3] : nullptr, d[out + 1], d[out], s, kEps};
      const RowBlock block =
          form == Form::fused_most_threads ? RowBlock::most_threads : RowBlock::fewest_threads;
      if (form == Form::unfused) {
        layernorm ? layernorm_residual_unfused(p, a, st) : rmsnorm_residual_unfused(p, a, st);
      } else {
        layernorm ? layernorm_residual_fused(p, a, st, block)
                  : rmsnorm_residual_fused(p, a, st, block);
      }
    };
    fam.reference = [layernorm](const auto& in, RowShape s, Precision p) {
      return norm_reference(in, s, p, layernorm);
    };
    fam.traffic = layernorm ? layernorm_residual_traffic : rmsnorm_residual_traffic;
    fam.block_per_row = true;
    fam.writes_residual = true;
    fam.forms = {Form::fused, Form::fused_most_threads, Form::unfused};
    return fam;
  };
  f.push_back(norm(false));
  f.push_back(norm(true));

  RowFamily softmax;
  softmax.name = "softmax";
  softmax.input_sizes = [](RowShape s) { return std::vector<std::int64_t>{s.rows * s.hidden}; };
  softmax.launch = [](Precision p, Form form, const Ptrs& d, RowShape s, cudaStream_t st) {
    form != Form::unfused ? softmax_fused(p, d[0], d[1], s, st)
                          : softmax_unfused(p, d[0], d[1], static_cast<float*>(d[2]), s, st);
  };
  softmax.reference = [](const auto& in, RowShape s, Precision) {
    std::vector<double> y(std::size_t(s.rows * s.hidden));
    for (std::int64_t r = 0; r < s.rows; ++r) {
      const float* x = in[0].data() + r * s.hidden;
      double m = -INFINITY, sum = 0;
      for (std::int64_t c = 0; c < s.hidden; ++c) m = std::max(m, double(x[c]));
      for (std::int64_t c = 0; c < s.hidden; ++c) sum += std::exp(x[c] - m);
      for (std::int64_t c = 0; c < s.hidden; ++c)
        y[std::size_t(r * s.hidden + c)] = std::exp(x[c] - m) / sum;
    }
    return y;
  };
  softmax.traffic = softmax_traffic;
  softmax.block_per_row = true;
  f.push_back(softmax);

  RowFamily bias_gelu;
  bias_gelu.name = "bias_gelu";
  bias_gelu.input_sizes = [](RowShape s) {
    return std::vector<std::int64_t>{s.rows * s.hidden, s.hidden};
  };
  bias_gelu.launch = [](Precision p, Form form, const Ptrs& d, RowShape s, cudaStream_t st) {
    form != Form::unfused ? bias_gelu_fused(p, d[0], d[1], d[2], s, st)
                          : bias_gelu_unfused(p, d[0], d[1], d[2], s, st);
  };
  bias_gelu.reference = [](const auto& in, RowShape s, Precision) {
    std::vector<double> y(std::size_t(s.rows * s.hidden));
    for (std::size_t i = 0; i < y.size(); ++i)
      y[i] = gelu(double(in[0][i]) + in[1][i % std::size_t(s.hidden)]);
    return y;
  };
  bias_gelu.traffic = bias_gelu_traffic;
  f.push_back(bias_gelu);

  RowFamily swiglu;
  swiglu.name = "swiglu";
  swiglu.input_sizes = [](RowShape s) { return std::vector<std::int64_t>{2 * s.rows * s.hidden}; };
  swiglu.launch = [](Precision p, Form form, const Ptrs& d, RowShape s, cudaStream_t st) {
    form != Form::unfused ? swiglu_fused(p, d[0], d[1], s, st)
                          : swiglu_unfused(p, d[0], d[1], s, st);
  };
  swiglu.reference = [](const auto& in, RowShape s, Precision) {
    std::vector<double> y(std::size_t(s.rows * s.hidden));
    for (std::int64_t r = 0; r < s.rows; ++r)
      for (std::int64_t c = 0; c < s.hidden; ++c) {
        const float* row = in[0].data() + 2 * r * s.hidden;
        y[std::size_t(r * s.hidden + c)] = silu(row[c]) * row[s.hidden + c];
      }
    return y;
  };
  swiglu.traffic = swiglu_traffic;
  f.push_back(swiglu);
  return f;
}

RowFamily rope_family(std::int64_t heads) {
  RowFamily rope;
  rope.name = "rope";
  rope.heads = heads;
  rope.input_sizes = [](RowShape s) { return std::vector<std::int64_t>{s.rows * s.hidden}; };
  rope.traffic = [heads](RowShape s, Precision p) { return rope_traffic(s, p, s.rows / heads); };
  rope.reference = [heads](const auto& in, RowShape s, Precision) {
    std::vector<double> y(std::size_t(s.rows * s.hidden));
    for (std::int64_t r = 0; r < s.rows; ++r) {
      const double pos = double(r / heads);
      for (std::int64_t i = 0; i < s.hidden / 2; ++i) {
        const double angle = pos * std::pow(double(kTheta), -2.0 * double(i) / double(s.hidden));
        // Rotate-half pairs: element i with element i + hidden/2.
        const std::size_t at = std::size_t(r * s.hidden + i),
                          partner = at + std::size_t(s.hidden / 2);
        const double a = in[0][at], b = in[0][partner];
        y[at] = a * std::cos(angle) - b * std::sin(angle);
        y[partner] = b * std::cos(angle) + a * std::sin(angle);
      }
    }
    return y;
  };
  return rope;
}

// Device tensors of one case: inputs, output, scratch (and the RoPE table).
struct CaseBuffers {
  std::vector<DeviceBuffer<unsigned char>> tensors;
  std::vector<std::vector<float>> host;
  DeviceBuffer<float> rope_table;
  Ptrs ptrs;

  CaseBuffers(const RowFamily& fam, RowShape s, Precision p, bool host_values, cudaStream_t st) {
    const auto sizes = fam.input_sizes(s);
    const std::size_t e = element_bytes(p);
    std::uint64_t seed = 100;
    for (std::int64_t n : sizes) {
      if (host_values) {
        host.push_back(seeded_values(std::size_t(n), seed++, p));
        tensors.emplace_back(to_storage(host.back(), p));
      } else {
        tensors.emplace_back(std::size_t(n) * e);
        fill_random(p, tensors.back().get(), std::size_t(n), seed++, st);
      }
    }
    const std::size_t out_elements = std::size_t(s.rows * s.hidden);
    tensors.emplace_back(out_elements * e);                                     // output
    tensors.emplace_back(std::max(out_elements * e, std::size_t(s.rows) * 8));  // scratch
    for (auto& t : tensors) ptrs.push_back(t.get());
    if (fam.name == "rope") {  // cos/sin per (token, pair): built once, like a model's cached table
      rope_table = DeviceBuffer<float>(std::size_t(s.rows / fam.heads * s.hidden));
      perfgate::cuda::rope_table(rope_table.get(), s.rows / fam.heads, s.hidden, kTheta, st);
    }
  }
  DeviceBuffer<unsigned char>& output() { return tensors[tensors.size() - 2]; }
  DeviceBuffer<unsigned char>& scratch() { return tensors.back(); }
};

void launch_family(const RowFamily& fam, CaseBuffers& b, Precision p, Form form, RowShape s,
                   cudaStream_t st) {
  if (fam.name == "rope") {
    const std::int64_t tokens = s.rows / fam.heads;
    form != Form::unfused ? rope_fused(p, b.ptrs[0], b.rope_table.get(), tokens, b.ptrs[1], tokens,
                                       fam.heads, s.hidden, st)
                          : rope_unfused(p, b.ptrs[0], b.rope_table.get(), tokens, b.ptrs[2],
                                         b.ptrs[1], tokens, fam.heads, s.hidden, st);
    return;
  }
  fam.launch(p, form, b.ptrs, s, st);
}

// The stored residual h = x + r against the same sum rounded to the storage type (the kernels
// add in fp32 and round once, as the host does here).
double residual_error(CaseBuffers& b, RowShape s, Precision p) {
  const std::size_t n = std::size_t(s.rows * s.hidden);
  auto h = from_storage(b.scratch().download(), p);
  h.resize(n);  // the scratch tensor may be larger than the output
  std::vector<double> ref(n);
  for (std::size_t i = 0; i < n; ++i) ref[i] = round_to(p, b.host[0][i] + b.host[1][i]);
  return relative_error(h, ref);
}

// One row per form; the norms' error is the larger of y's and the stored residual's.
void check_family(Context& ctx, const RowFamily& fam, RowShape s, Precision p) {
  for (Form form : fam.forms) {
    Row row{
        fam.name, variant_name(form),
        shape_text({{"rows", s.rows / fam.heads},
                    {fam.heads > 1 ? "heads" : "hidden", fam.heads > 1 ? fam.heads : s.hidden}}),
        to_string(p)};
    if (fam.heads > 1) row.shape += " head_dim=" + std::to_string(s.hidden);
    guarded(ctx, row, [&] {
      CaseBuffers b(fam, s, p, true, ctx.stream());
      // NaN (0xFF bytes) until written: a value left unwritten fails, even where the allocation
      // still holds the previous case's correct result.
      b.output().fill(0xFF);
      b.scratch().fill(0xFF);
      launch_family(fam, b, p, form, s, ctx.stream());
      PERFGATE_CUDA_CHECK(cudaStreamSynchronize(ctx.stream()));
      const auto out = from_storage(b.output().download(), p);
      double error = relative_error(out, fam.reference(b.host, s, p));
      if (fam.writes_residual) error = std::max(error, residual_error(b, s, p));
      ctx.check_row(row, error, error_bound(p));
    });
  }
}

// Copies of a cold case's tensors, one per launch of a sample: none is in L2 after the flush,
// and enough launches that a sample moves twice the L2's size (a 1 MiB tensor's single cold
// launch measured 4.9-10.6 us on an H200, latency included: too close to the event timer's
// 0.5 us resolution to time alone).
int cold_copies(const Context& ctx, const Traffic& traffic) {
  constexpr int kMaxCopies = 64;
  const double target = 2.0 * double(ctx.prop().l2CacheSize);
  return int(std::clamp(std::ceil(target / std::max(traffic.bytes, 1.0)), 1.0, double(kMaxCopies)));
}

void time_family(Context& ctx, const RowFamily& fam, RowShape s, Precision p, TimingOptions timing,
                 bool spread) {
  if (!ctx.wants_timing(fam.name, spread)) return;
  for (Form form : fam.forms) {
    if ((ctx.spread_only() || timing.cold) && form != Form::fused) continue;
    const double mib = double(s.rows * s.hidden) * double(element_bytes(p)) / double(1 << 20);
    Row row{fam.name, variant_name(form),
            shape_text({{"rows", s.rows}, {"hidden", s.hidden}}) + " (" +
                std::to_string(std::int64_t(mib)) + " MiB)",
            to_string(p)};
    guarded(ctx, row, [&] {
      const Traffic traffic = fam.traffic(s, p);
      std::vector<std::unique_ptr<CaseBuffers>> copies;
      const int count = timing.cold ? cold_copies(ctx, traffic) : 1;
      for (int c = 0; c < count; ++c)
        copies.push_back(std::make_unique<CaseBuffers>(fam, s, p, false, ctx.stream()));
      timing.rotations = count;
      ctx.time_row(
          row,
          [&](cudaStream_t st, int rotation) {
            launch_family(fam, *copies[std::size_t(rotation) % copies.size()], p, form, s, st);
          },
          traffic, Bound::memory, timing);
    });
  }
}

// AdamW: a list of differently sized fp32 tensors (one with a ragged tail).
void adamw_cases(Context& ctx) {
  const AdamWHyper hyper{1e-3f, 0.9f, 0.999f, 1e-8f, 0.01f, 3};
  auto run = [&](const std::vector<std::int64_t>& sizes, bool host_values,
                 const std::function<void(TensorList&, std::vector<std::vector<float>>&,
                                          std::vector<DeviceBuffer<float>>&)>& body) {
    std::vector<DeviceBuffer<float>> buffers;
    std::vector<std::vector<float>> host;
    TensorList list;
    std::uint64_t seed = 500;
    for (std::int64_t n : sizes) {
      for (int k = 0; k < 4; ++k) {
        if (host_values) {
          host.push_back(
              seeded_values(std::size_t(n), seed++, Precision::f32, k == 3 ? 0.01f : 0.25f));
          if (k == 3)
            for (float& v : host.back()) v = std::abs(v);  // second moment >= 0
          buffers.emplace_back(host.back());
        } else {
          buffers.emplace_back(std::size_t(n));
          fill_random(Precision::f32, buffers.back().get(), std::size_t(n), seed++, ctx.stream());
        }
      }
      const std::size_t at = buffers.size() - 4;
      list.params.push_back(buffers[at].get());
      list.grads.push_back(buffers[at + 1].get());
      list.m.push_back(buffers[at + 2].get());
      list.v.push_back(buffers[at + 3].get());
      list.sizes.push_back(n);
    }
    body(list, host, buffers);
  };
  if (ctx.wants("adamw") && !ctx.spread_only()) {
    for (bool fused : {true, false}) {
      const std::vector<std::int64_t> sizes{1000, 70001, 4096};
      Row row{"adamw", fused ? "multi_tensor" : "unfused", "tensors=3 params=75097", "f32"};
      guarded(ctx, row, [&] {
        run(sizes, true, [&](TensorList& list, auto& host, auto& buffers) {
          // Alive until the synchronize: its destructor frees the chunk table the launch reads.
          std::optional<AdamWMultiTensor> multi;
          if (fused) {
            multi.emplace(list);
            multi->launch(hyper, ctx.stream());
          } else {
            adamw_unfused(list, hyper, ctx.stream());
          }
          PERFGATE_CUDA_CHECK(cudaStreamSynchronize(ctx.stream()));
          // The step moves p by about lr (up to ~2e-3 here) against |p| < 1, weight decay by
          // only lr * 0.01 * |p|: measured against max |p| a wrong or missing term would hide
          // under any bound fp32 rounding of p needs. So the update p - p0 (exact in fp32: p and
          // p0 are within a factor of 2) is compared relative to its own largest value, where
          // p's rounding leaves ~3e-8 of ~2e-3, and m and v relative to theirs.
          std::vector<float> step, m_out, v_out;
          std::vector<double> step_ref, m_ref, v_ref;
          const AdamWReference reference(hyper);
          for (std::size_t t = 0; t < sizes.size(); ++t) {
            const auto p = buffers[4 * t].download(), m = buffers[4 * t + 2].download(),
                       v = buffers[4 * t + 3].download();
            m_out.insert(m_out.end(), m.begin(), m.end());
            v_out.insert(v_out.end(), v.begin(), v.end());
            const auto &p0 = host[4 * t], &g = host[4 * t + 1], &m0 = host[4 * t + 2],
                       &v0 = host[4 * t + 3];
            for (std::size_t i = 0; i < p0.size(); ++i) {
              const AdamWReference::Element r = reference(p0[i], g[i], m0[i], v0[i]);
              step.push_back(p[i] - p0[i]);
              step_ref.push_back(r.update);
              m_ref.push_back(r.m);
              v_ref.push_back(r.v);
            }
          }
          ctx.check_row(row,
                        std::max({relative_error(step, step_ref), relative_error(m_out, m_ref),
                                  relative_error(v_out, v_ref)}),
                        error_bound(Precision::f32));
        });
      });
    }
  }
  if (!ctx.wants_timing("adamw", true)) return;
  // 64 Mi parameters in 9 tensors (256 MiB per state array), one with a ragged tail.
  const std::vector<std::int64_t> sizes{16 << 20, 16 << 20, 8 << 20,       8 << 20, 8 << 20,
                                        4 << 20,  2 << 20,  (2 << 20) - 3, 3};
  std::int64_t total = 0;
  for (auto n : sizes) total += n;
  for (bool fused : {true, false}) {
    if (ctx.spread_only() && !fused) continue;
    Row row{"adamw", fused ? "multi_tensor" : "unfused",
            "tensors=9 params=" + std::to_string(total) + " (256 MiB)", "f32"};
    guarded(ctx, row, [&] {
      run(sizes, false, [&](TensorList& list, auto&, auto&) {
        std::unique_ptr<AdamWMultiTensor> multi =
            fused ? std::make_unique<AdamWMultiTensor>(list) : nullptr;
        ctx.time_row(
            row,
            [&](cudaStream_t st, int) {
              fused ? multi->launch(hyper, st) : adamw_unfused(list, hyper, st);
            },
            adamw_traffic(total), Bound::memory);
      });
    });
  }
}

}  // namespace

void run_fused_cases(Context& ctx) {
  const auto families = row_families();
  const RowShape check_shape{64, 1024}, large{32768, 8192}, small{64, 8192};
  TimingOptions hot, graph, cold;
  graph.graph = true;
  cold.cold = true;
  // Beyond check_shape (bf16: 128 vectors, one warp). The row kernels size the block to the row,
  // one thread per 4 vectors in whole warps: hidden 8192 bf16 (1024 vectors) is the timed rows'
  // 8 warps, 4352 (544 vectors) 5 warps with the last vector slot partly filled, 32768 (4096
  // vectors, the limit) 32 warps, as is 16384 in f32; the norms' most-threads form runs 1024,
  // 544 and (past 1024 vectors, as the default) 1024 threads on them. The elementwise kernels cap
  // their grid at 132 * 32 blocks of 256 threads whatever the SM count (1,081,344 threads):
  // 4096 x 4352 bf16 is 2,228,224 vectors, so SwiGLU's threads go round the grid-stride loop
  // twice (some three times), and bias+GeLU, two vectors a pass, takes a second pass on 6% of
  // its threads, with its carried bias column off the row start (1,081,344 mod 544 = 416).
  const std::vector<RowShape> block_shapes{{64, 8192}, {64, 4352}, {16, 32768}};
  const RowShape grid_stride_shape{4096, 4352};
  for (const RowFamily& fam : families) {
    if (ctx.wants(fam.name) && !ctx.spread_only()) {
      check_family(ctx, fam, check_shape, Precision::bf16);
      if (fam.name == "rmsnorm_residual") {
        check_family(ctx, fam, check_shape, Precision::f32);
        check_family(ctx, fam, check_shape, Precision::f16);
        check_family(ctx, fam, RowShape{16, 16384}, Precision::f32);
      }
      if (fam.block_per_row) {
        for (RowShape s : block_shapes) check_family(ctx, fam, s, Precision::bf16);
      } else {
        check_family(ctx, fam, grid_stride_shape, Precision::bf16);
      }
    }
    time_family(ctx, fam, large, Precision::bf16, hot, fam.name == "rmsnorm_residual");
    if (ctx.spread_only()) continue;
    time_family(ctx, fam, small, Precision::bf16, graph,
                false);                                          // launch overhead hidden by replay
    time_family(ctx, fam, small, Precision::bf16, cold, false);  // L2 flushed, inputs rotated
  }
  if (ctx.wants("rope") && !ctx.spread_only())
    check_family(ctx, rope_family(4), RowShape{64 * 4, 128}, Precision::bf16);
  time_family(ctx, rope_family(32), RowShape{32768 * 32, 128}, Precision::bf16, hot, false);
  adamw_cases(ctx);
}

}  // namespace perfgate::cuda::check

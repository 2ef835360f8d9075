// GEMM family: cuBLASLt bf16 (and fp8 where supported) with the epilogue fused (bias,
// bias+GeLU) versus a plain GEMM followed by the separate bias+GeLU kernel.
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <vector>

#include "check_context.hpp"
#include "perfgate/cuda/check.hpp"
#include "perfgate/cuda/fused_ops.hpp"
#include "perfgate/cuda/gemm_lt.hpp"
#include "perfgate/cuda/host_data.hpp"

namespace perfgate::cuda::check {
namespace {

double gelu(double x) {
  return 0.5 * x * (1.0 + std::tanh(0.7978845608028654 * (x + 0.044715 * x * x * x)));
}

void check_gemm(Context& ctx, Precision p, Epilogue epilogue) {
  const GemmShape shape{128, 192, 256};
  const std::string dtype = to_string(p);
  Row row{"gemm", std::string("lt.") + to_string(epilogue),
          shape_text({{"m", 128}, {"n", 192}, {"k", 256}}), dtype};
  guarded(ctx, row, [&] {
    LtGemm gemm(shape, p, epilogue);
    const Precision out = gemm.output_precision();
    const auto a = seeded_values(std::size_t(shape.m * shape.k), 11, p);
    const auto w = seeded_values(std::size_t(shape.n * shape.k), 12, p);
    // A bias as large as the products' spread (sigma ~7 at k = 256): one dropped, or broadcast
    // along the wrong axis, moves every output by several units, far outside the bound.
    const auto bias = seeded_values(std::size_t(shape.n), 13, out, 4.0f, 16.0f);
    DeviceBuffer<unsigned char> da(to_storage(a, p)), dw(to_storage(w, p)),
        db(to_storage(bias, out));
    DeviceBuffer<unsigned char> dc(std::size_t(shape.m * shape.n) * element_bytes(out));
    gemm.run(da.get(), dw.get(), dc.get(), epilogue == Epilogue::none ? nullptr : db.get(),
             ctx.stream());
    PERFGATE_CUDA_CHECK(cudaStreamSynchronize(ctx.stream()));
    std::vector<double> ref(std::size_t(shape.m * shape.n));
    for (std::int64_t i = 0; i < shape.m; ++i)
      for (std::int64_t j = 0; j < shape.n; ++j) {
        double acc = 0;
        for (std::int64_t k = 0; k < shape.k; ++k)
          acc += double(a[i * shape.k + k]) * w[j * shape.k + k];
        if (epilogue != Epilogue::none) acc += bias[j];
        ref[i * shape.n + j] = epilogue == Epilogue::bias_gelu ? gelu(acc) : acc;
      }
    ctx.check_row(row, relative_error(from_storage(dc.download(), out), ref), error_bound(out));
  });
}

// The timed shape's own kernel checked on sampled outputs: the heuristic may choose another
// algorithm (split-K, a larger tile) for 8192^3 than for the small checked shape.
void check_sampled(Context& ctx, const Row& timed, GemmShape shape, Precision p, Precision out,
                   Epilogue epilogue, const DeviceBuffer<unsigned char>& a,
                   const DeviceBuffer<unsigned char>& w, const DeviceBuffer<unsigned char>& c,
                   const DeviceBuffer<unsigned char>& bias) {
  constexpr std::size_t kSamples = 64;
  const auto k = std::size_t(shape.k);
  // Positions spread over the whole output, corners and tile boundaries included: sample s reads
  // row i of A, row j of W and output (i, j). The device gathers them into one buffer
  // [A rows | W rows | outputs], copied back at once.
  std::vector<std::int64_t> positions(3 * kSamples);
  for (std::size_t s = 0; s < kSamples; ++s) {
    const std::int64_t i = (std::int64_t(s) * 2731 + 7) % shape.m;
    const std::int64_t j = (std::int64_t(s) * 4099 + 13) % shape.n;
    positions[s] = i;
    positions[kSamples + s] = j;
    positions[2 * kSamples + s] = i * shape.n + j;
  }
  const DeviceBuffer<std::int64_t> device_positions(positions);
  const std::size_t row_bytes = k * element_bytes(p), out_bytes = element_bytes(out);
  DeviceBuffer<unsigned char> gathered(kSamples * (2 * row_bytes + out_bytes));
  gather_rows(a.get(), row_bytes, device_positions.get(), kSamples, gathered.get(), ctx.stream());
  gather_rows(w.get(), row_bytes, device_positions.get() + kSamples, kSamples,
              gathered.get() + kSamples * row_bytes, ctx.stream());
  gather_rows(c.get(), out_bytes, device_positions.get() + 2 * kSamples, kSamples,
              gathered.get() + 2 * kSamples * row_bytes, ctx.stream());
  PERFGATE_CUDA_CHECK(cudaStreamSynchronize(ctx.stream()));
  const std::vector<unsigned char> bytes = gathered.download();
  const auto part = [&](std::size_t first_byte, std::size_t count, Precision q) {
    const auto from = bytes.begin() + std::ptrdiff_t(first_byte);
    return from_storage(
        std::vector<unsigned char>(from, from + std::ptrdiff_t(count * element_bytes(q))), q);
  };
  const std::vector<float> a_rows = part(0, kSamples * k, p),
                           w_rows = part(kSamples * row_bytes, kSamples * k, p),
                           got = part(2 * kSamples * row_bytes, kSamples, out);
  const std::vector<float> bias_host = from_storage(bias.download(), out);
  std::vector<double> ref;
  for (std::size_t s = 0; s < kSamples; ++s) {
    const float* a_row = &a_rows[s * k];
    const float* w_row = &w_rows[s * k];
    double acc = 0;
    for (std::size_t x = 0; x < k; ++x) acc += double(a_row[x]) * w_row[x];
    if (epilogue != Epilogue::none) acc += bias_host[std::size_t(positions[kSamples + s])];
    ref.push_back(epilogue == Epilogue::bias_gelu ? gelu(acc) : acc);
  }
  Row row{timed.family, timed.variant, timed.shape + " (" + std::to_string(kSamples) + " sampled)",
          timed.dtype};
  ctx.check_row(row, relative_error(got, ref), error_bound(out));
}

void time_gemm(Context& ctx, Precision p, Epilogue epilogue, bool separate_epilogue) {
  const GemmShape shape{8192, 8192, 8192};
  const std::string variant =
      separate_epilogue ? "lt+bias_gelu_kernel" : std::string("lt.") + to_string(epilogue);
  Row row{"gemm", variant, "m=n=k=8192", to_string(p)};
  guarded(ctx, row, [&] {
    LtGemm gemm(shape, p, separate_epilogue ? Epilogue::none : epilogue);
    const Precision out = gemm.output_precision();
    const auto n = std::size_t(shape.m * shape.k);
    DeviceBuffer<unsigned char> a(n * element_bytes(p)), w(n * element_bytes(p));
    DeviceBuffer<unsigned char> c(n * element_bytes(out)),
        bias(std::size_t(shape.n) * element_bytes(out));
    fill_random(p, a.get(), n, 21, ctx.stream());
    fill_random(p, w.get(), n, 22, ctx.stream());
    fill_random(out, bias.get(), std::size_t(shape.n), 23, ctx.stream());
    const void* bias_ptr = epilogue == Epilogue::none ? nullptr : bias.get();
    const Launch launch = [&](cudaStream_t s, int) {
      gemm.run(a.get(), w.get(), c.get(), separate_epilogue ? nullptr : bias_ptr, s);
      if (separate_epilogue)
        bias_gelu_fused(out, c.get(), bias.get(), c.get(), RowShape{shape.m, shape.n}, s);
    };
    // NaN until the timed launches write it: what they leave is what is checked.
    PERFGATE_CUDA_CHECK(cudaMemsetAsync(c.get(), 0xff, c.bytes(), ctx.stream()));
    ctx.time_row(row, launch, gemm_traffic(shape, p, epilogue != Epilogue::none), Bound::compute);
    if (!ctx.spread_only()) check_sampled(ctx, row, shape, p, out, epilogue, a, w, c, bias);
  });
}

}  // namespace

void run_gemm_cases(Context& ctx) {
  std::string why;
  const bool fp8 = gemm_supported(Precision::fp8, ctx.prop().major, ctx.prop().minor, &why);
  if (ctx.wants("gemm") && !ctx.spread_only()) {
    for (Epilogue e : {Epilogue::none, Epilogue::bias, Epilogue::bias_gelu})
      check_gemm(ctx, Precision::bf16, e);
    if (fp8) check_gemm(ctx, Precision::fp8, Epilogue::none);
  }
  if (ctx.wants_timing("gemm", true)) time_gemm(ctx, Precision::bf16, Epilogue::none, false);
  if (!ctx.wants_timing("gemm", false)) return;
  time_gemm(ctx, Precision::bf16, Epilogue::bias, false);
  time_gemm(ctx, Precision::bf16, Epilogue::bias_gelu, false);
  time_gemm(ctx, Precision::bf16, Epilogue::bias_gelu, true);
  if (fp8) {
    time_gemm(ctx, Precision::fp8, Epilogue::none, false);
  } else {
    ctx.add(Row{"gemm", "lt.none", "m=n=k=8192", "fp8", "-", "skip: " + why});
  }
}

}  // namespace perfgate::cuda::check

// The ceilings every result is a fraction of, measured in this run: a large device-to-device
// copy (cudaMemcpy and a 128-bit copy kernel; the faster counts) and a bf16 8192^3 GEMM.
#include "check_context.hpp"
#include "perfgate/cuda/check.hpp"
#include "perfgate/cuda/fused_ops.hpp"
#include "perfgate/cuda/gemm_lt.hpp"

namespace perfgate::cuda::check {

void measure_ceilings(Context& ctx) {
  const std::size_t bytes = std::size_t(2) << 30;  // 2 GiB each way: far beyond L2
  {
    DeviceBuffer<unsigned char> src(bytes), dst(bytes);
    fill_random(Precision::bf16, src.get(), bytes / 2, 1, ctx.stream());
    const Traffic traffic{0, 2.0 * double(bytes)};
    Row memcpy_row{"ceiling.copy", "cudaMemcpy", "bytes=2GiB", "u8", "hot", "-"};
    ctx.time_row(
        memcpy_row,
        [&](cudaStream_t s, int) {
          PERFGATE_CUDA_CHECK(
              cudaMemcpyAsync(dst.get(), src.get(), bytes, cudaMemcpyDeviceToDevice, s));
        },
        traffic, Bound::memory);
    Row kernel_row{"ceiling.copy", "kernel", "bytes=2GiB", "u8", "hot", "-"};
    ctx.time_row(
        kernel_row, [&](cudaStream_t s, int) { copy_kernel(src.get(), dst.get(), bytes, s); },
        traffic, Bound::memory);
    const auto& rows = ctx.rows();
    ctx.ceilings().copy_bytes_per_second =
        std::max(rows[rows.size() - 1].rate, rows[rows.size() - 2].rate);
  }
  {
    const GemmShape shape{8192, 8192, 8192};
    const auto n = std::size_t(shape.m * shape.k);
    DeviceBuffer<unsigned char> a(n * 2), w(n * 2), c(n * 2);
    fill_random(Precision::bf16, a.get(), n, 2, ctx.stream());
    fill_random(Precision::bf16, w.get(), n, 3, ctx.stream());
    CublasGemm gemm;
    Row row{"ceiling.gemm", "cublasGemmEx", "m=n=k=8192", "bf16", "hot", "-"};
    ctx.time_row(
        row, [&](cudaStream_t s, int) { gemm.run_bf16(shape, a.get(), w.get(), c.get(), s); },
        gemm_traffic(shape, Precision::bf16, false), Bound::compute);
    ctx.ceilings().gemm_flops_per_second = ctx.rows().back().rate;
  }
}

}  // namespace perfgate::cuda::check

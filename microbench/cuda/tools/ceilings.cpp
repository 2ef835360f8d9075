// The ceilings every result is a fraction of, measured in this run: a large device-to-device
// copy (cudaMemcpy and a 128-bit copy kernel; the faster counts) and a bf16 8192^3 GEMM.
#include <algorithm>

#include "check_context.hpp"
#include "perfgate/cuda/ceiling_work.hpp"

namespace perfgate::cuda::check {

void measure_ceilings(Context& ctx) {
  {
    CopyCeiling copy(std::size_t(2) << 30, ctx.stream());  // 2 GiB each way: far beyond L2
    Row memcpy_row{"ceiling.copy", "cudaMemcpy", "bytes=2GiB", "u8", "hot", "-"};
    ctx.time_row(memcpy_row, copy.through_memcpy(), copy.traffic(), Bound::memory);
    Row kernel_row{"ceiling.copy", "kernel", "bytes=2GiB", "u8", "hot", "-"};
    ctx.time_row(kernel_row, copy.through_kernel(), copy.traffic(), Bound::memory);
    const auto& rows = ctx.rows();
    ctx.ceilings().copy_bytes_per_second =
        std::max(rows[rows.size() - 1].rate, rows[rows.size() - 2].rate);
  }
  {
    GemmCeiling gemm(GemmShape{8192, 8192, 8192}, ctx.stream());
    Row row{"ceiling.gemm", "cublasGemmEx", "m=n=k=8192", "bf16", "hot", "-"};
    ctx.time_row(row, gemm.launch(), gemm.traffic(), Bound::compute);
    ctx.ceilings().gemm_flops_per_second = ctx.rows().back().rate;
  }
}

}  // namespace perfgate::cuda::check

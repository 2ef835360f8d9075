// The cuda backend's ceilings for `perfgate run` (ceilings.hpp): measured once per run, in a
// measuring child of their own, with the same work and timer as the device check.
#include <algorithm>

#include "perfgate/cuda/ceiling_work.hpp"
#include "registry_device.hpp"

namespace perfgate::microbench::cuda_backend {
namespace {

// Median seconds per launch over 10 kept samples (throttled ones retaken), and how the clocks
// read, for the record.
nlohmann::json timed(const pc::Launch& launch, double& median_s) {
  pc::TimingOptions options;
  options.samples = 10;
  const pc::TimingResult r = device().timer->measure(launch, options);
  median_s = r.median();
  return {{"median_s", median_s},
          {"cv", r.coefficient_of_variation()},
          {"batch", r.batch},
          {"throttled_discarded", r.discarded_throttled},
          {"sm_clock_mhz", {r.min_sm_clock_mhz, r.max_sm_clock_mhz}}};
}

// 2 GiB each way, far beyond any L2, or a quarter of the free memory on a smaller GPU.
std::size_t copy_bytes() {
  std::size_t free = 0, total = 0;
  PERFGATE_CUDA_CHECK(cudaMemGetInfo(&free, &total));
  return std::min(std::size_t(2) << 30, free / 4 / 256 * 256);
}

Ceilings measure() {
  const cudaStream_t stream = device().stream;
  Ceilings c;
  {
    pc::CopyCeiling copy(copy_bytes(), stream);
    double memcpy_s = 0, kernel_s = 0;
    c.how["copy"] = {{"bytes", copy.bytes()},
                     {"cudaMemcpyAsync", timed(copy.through_memcpy(), memcpy_s)},
                     {"kernel", timed(copy.through_kernel(), kernel_s)}};
    c.copy_bytes_per_second = copy.traffic().bytes / std::min(memcpy_s, kernel_s);
  }
  {
    pc::GemmCeiling gemm(pc::GemmShape{8192, 8192, 8192}, stream);
    double gemm_s = 0;
    c.how["gemm"] = {
        {"shape", "m=n=k=8192"}, {"dtype", "bf16"}, {"cublasGemmEx", timed(gemm.launch(), gemm_s)}};
    c.gemm_flops_per_second = gemm.traffic().flops / gemm_s;
  }
  return c;
}

const detail::Registrar ceilings{[] { Registry::instance().backend_ceilings("cuda", measure); }};

}  // namespace
}  // namespace perfgate::microbench::cuda_backend

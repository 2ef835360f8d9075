#include "gemm_ceiling.hpp"

#include <algorithm>

#include "gpu_kernels.hpp"
#include "perfgate/cuda/check.hpp"
#include "perfgate/cuda/device_buffer.hpp"
#include "perfgate/cuda/gemm_lt.hpp"

namespace perfgate::step_proxy::gpu {

double measure_gemm_ceiling_flops(cudaStream_t stream) {
  constexpr int kWarmup = 3, kSamples = 10;
  const cuda::GemmShape shape{8192, 8192, 8192};
  const std::size_t elements =
      static_cast<std::size_t>(shape.m) * static_cast<std::size_t>(shape.k);
  cuda::DeviceBuffer<Bf16Bits> a(elements), w(elements), c(elements);
  fill_uniform(a.get(), elements, 1.0f, 11, stream);
  fill_uniform(w.get(), elements, 1.0f / 90.0f, 12, stream);
  const cuda::LtGemm gemm(shape, cuda::Precision::bf16, cuda::Epilogue::none);
  for (int i = 0; i < kWarmup; ++i) gemm.run(a.get(), w.get(), c.get(), nullptr, stream);
  cudaEvent_t start = nullptr, stop = nullptr;
  PERFGATE_CUDA_CHECK(cudaEventCreate(&start));
  PERFGATE_CUDA_CHECK(cudaEventCreate(&stop));
  double best = 0;
  const double flops = 2.0 * double(shape.m) * double(shape.n) * double(shape.k);
  for (int i = 0; i < kSamples; ++i) {
    PERFGATE_CUDA_CHECK(cudaEventRecord(start, stream));
    gemm.run(a.get(), w.get(), c.get(), nullptr, stream);
    PERFGATE_CUDA_CHECK(cudaEventRecord(stop, stream));
    PERFGATE_CUDA_CHECK(cudaEventSynchronize(stop));
    float ms = 0;
    PERFGATE_CUDA_CHECK(cudaEventElapsedTime(&ms, start, stop));
    if (ms > 0) best = std::max(best, flops / (1e-3 * double(ms)));
  }
  cudaEventDestroy(start);
  cudaEventDestroy(stop);
  return best;
}

}  // namespace perfgate::step_proxy::gpu

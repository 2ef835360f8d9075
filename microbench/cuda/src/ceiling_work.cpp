#include "perfgate/cuda/ceiling_work.hpp"

#include "perfgate/cuda/check.hpp"
#include "perfgate/cuda/fused_ops.hpp"

namespace perfgate::cuda {

CopyCeiling::CopyCeiling(std::size_t bytes, cudaStream_t s)
    : bytes_(bytes), src_(bytes), dst_(bytes) {
  fill_random(Precision::bf16, src_.get(), bytes / 2, 1, s);
  PERFGATE_CUDA_CHECK(cudaStreamSynchronize(s));
}

Launch CopyCeiling::through_memcpy() {
  return [this](cudaStream_t s, int) {
    PERFGATE_CUDA_CHECK(
        cudaMemcpyAsync(dst_.get(), src_.get(), bytes_, cudaMemcpyDeviceToDevice, s));
  };
}

Launch CopyCeiling::through_kernel() {
  return [this](cudaStream_t s, int) { copy_kernel(src_.get(), dst_.get(), bytes_, s); };
}

GemmCeiling::GemmCeiling(GemmShape shape, cudaStream_t s)
    : shape_(shape),
      a_(std::size_t(shape.m * shape.k) * 2),
      w_(std::size_t(shape.n * shape.k) * 2),
      c_(std::size_t(shape.m * shape.n) * 2) {
  fill_random(Precision::bf16, a_.get(), std::size_t(shape.m * shape.k), 2, s);
  fill_random(Precision::bf16, w_.get(), std::size_t(shape.n * shape.k), 3, s);
  PERFGATE_CUDA_CHECK(cudaStreamSynchronize(s));
}

Launch GemmCeiling::launch() {
  return [this](cudaStream_t s, int) { gemm_.run_bf16(shape_, a_.get(), w_.get(), c_.get(), s); };
}

}  // namespace perfgate::cuda

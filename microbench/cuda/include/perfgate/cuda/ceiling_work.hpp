#pragma once
// The work every CUDA result's fraction of ceiling is measured against (DESIGN.md §5), shared
// by the device check and `perfgate run --backend cuda`: a large device-to-device copy, through
// cudaMemcpyAsync and through a 128-bit copy kernel (the faster one counts; bytes read +
// written), and a square bf16 cuBLAS GEMM.
#include <cuda_runtime.h>

#include <cstddef>

#include "perfgate/cuda/device_buffer.hpp"
#include "perfgate/cuda/gemm_lt.hpp"
#include "perfgate/cuda/gpu_timer.hpp"
#include "perfgate/cuda/traffic_model.hpp"

namespace perfgate::cuda {

class CopyCeiling {
 public:
  // Source filled with random bf16 values on `s` (never zeros), so nothing copies a blank page.
  CopyCeiling(std::size_t bytes, cudaStream_t s);
  Launch through_memcpy();
  Launch through_kernel();
  std::size_t bytes() const { return bytes_; }
  Traffic traffic() const { return {0, 2.0 * double(bytes_)}; }

 private:
  std::size_t bytes_;
  DeviceBuffer<unsigned char> src_, dst_;
};

class GemmCeiling {
 public:
  GemmCeiling(GemmShape shape, cudaStream_t s);  // A and W random bf16
  Launch launch();
  GemmShape shape() const { return shape_; }
  Traffic traffic() const { return gemm_traffic(shape_, Precision::bf16, false); }

 private:
  GemmShape shape_;
  DeviceBuffer<unsigned char> a_, w_, c_;
  CublasGemm gemm_;
};

}  // namespace perfgate::cuda

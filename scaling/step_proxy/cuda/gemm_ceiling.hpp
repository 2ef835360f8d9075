#pragma once
// The MFU denominator on a GPU: the best rate of a large bf16 cuBLASLt GEMM (m = n = k = 8192,
// the device check's GEMM ceiling shape) on this rank's device.
#include <cuda_runtime.h>

namespace perfgate::step_proxy::gpu {

double measure_gemm_ceiling_flops(cudaStream_t stream);

}  // namespace perfgate::step_proxy::gpu

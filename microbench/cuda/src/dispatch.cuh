#pragma once
// Runtime precision -> storage type, for the launchers.
#include <cuda_bf16.h>
#include <cuda_fp16.h>

#include "perfgate/core/error.hpp"
#include "perfgate/cuda/traffic_model.hpp"

namespace perfgate::cuda::kernels {

template <class F>
void dispatch_storage(Precision p, F&& f) {
  switch (p) {
    case Precision::f32:
      f(float{});
      return;
    case Precision::bf16:
      f(__nv_bfloat16{});
      return;
    case Precision::f16:
      f(__half{});
      return;
    case Precision::fp8:
      break;
  }
  throw InputError(std::string("cuda kernels: precision ") + to_string(p) +
                   " is not supported by this operator");
}

inline unsigned blocks_for(std::int64_t work, int per_block) {
  return unsigned((work + per_block - 1) / per_block);
}

}  // namespace perfgate::cuda::kernels

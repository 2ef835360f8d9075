#pragma once
// 128-bit vector access for fp32/bf16/f16 storage, and block-wide reductions.
#include <cuda_bf16.h>
#include <cuda_fp16.h>
#include <cuda_runtime.h>

#include <cstdint>

#include "fast_math.cuh"

namespace perfgate::cuda::kernels {

template <class T>
struct Vec {
  static constexpr int width = 16 / sizeof(T);  // elements per 128-bit access
  float v[width];

  __device__ __forceinline__ void load(const T* p) { unpack(load_word(p)); }
  // A coherent load, for a buffer the same kernel also writes (in place): the read-only path
  // (ld.global.nc) requires the data to stay unchanged for the whole kernel.
  __device__ __forceinline__ void load_plain(const T* p) {
    unpack(*reinterpret_cast<const uint4*>(p));
  }
  __device__ __forceinline__ void store(T* p) const { *reinterpret_cast<uint4*>(p) = pack(); }
  // The 128-bit word as stored. A kernel that keeps a row in registers keeps words: for 16-bit
  // storage that is half the registers of the fp32 values.
  static __device__ __forceinline__ uint4 load_word(const T* p) {
    return __ldg(reinterpret_cast<const uint4*>(p));
  }
  __device__ __forceinline__ void unpack(uint4 raw) {
    const T* e = reinterpret_cast<const T*>(&raw);
#pragma unroll
    for (int i = 0; i < width; ++i) v[i] = to_float(e[i]);
  }
  __device__ __forceinline__ uint4 pack() const {
    uint4 raw;
    T* e = reinterpret_cast<T*>(&raw);
#pragma unroll
    for (int i = 0; i < width; ++i) e[i] = from_float(v[i]);
    return raw;
  }
  static __device__ __forceinline__ float to_float(float x) {
    return x;
  }
  static __device__ __forceinline__ float to_float(__nv_bfloat16 x) {
    return __bfloat162float(x);
  }
  static __device__ __forceinline__ float to_float(__half x) {
    return __half2float(x);
  }
  static __device__ __forceinline__ T from_float(float x) {
    if constexpr (sizeof(T) == 4) {
      return x;
    } else if constexpr (std::is_same_v<T, __nv_bfloat16>) {
      return __float2bfloat16_rn(x);
    } else {
      return __float2half_rn(x);
    }
  }
};

template <class T>
__device__ __forceinline__ float load_scalar(const T* p) {
  return Vec<T>::to_float(*p);
}

__device__ __forceinline__ float warp_sum(float x) {
#pragma unroll
  for (int o = 16; o > 0; o >>= 1) x += __shfl_xor_sync(0xffffffffu, x, o);
  return x;
}
__device__ __forceinline__ float warp_max(float x) {
#pragma unroll
  for (int o = 16; o > 0; o >>= 1) x = fmaxf(x, __shfl_xor_sync(0xffffffffu, x, o));
  return x;
}

// Block-wide sum/max for blocks of up to 1024 threads; every thread gets the result.
template <bool IsMax>
__device__ __forceinline__ float block_reduce(float x) {
  __shared__ float partial[32];
  const int lane = threadIdx.x & 31, warp = threadIdx.x >> 5;
  x = IsMax ? warp_max(x) : warp_sum(x);
  __syncthreads();  // partial[] may still be read by a previous reduction
  if (lane == 0) partial[warp] = x;
  __syncthreads();
  const int warps = (blockDim.x + 31) >> 5;
  float y = lane < warps ? partial[lane] : (IsMax ? -INFINITY : 0.0f);
  return IsMax ? warp_max(y) : warp_sum(y);
}

// The tanh approximation of GeLU, written as x * sigmoid(2u) (0.5 * (1 + tanh u) is sigmoid(2u)):
// one exponential and one fast division, not tanhf's branches or an IEEE division's refinement,
// which made bias+GeLU compute-bound. For very negative x the exponential overflows to infinity
// and the quotient is the limit, 0.
__device__ __forceinline__ float gelu_tanh(float x) {
  // 2u log2(e), u = sqrt(2/pi) (x + 0.044715 x^3): e^(-2u) = 2^(-2u log2 e), one multiply.
  const float two_u_log2e = 2.302208198144325f * (x + 0.044715f * x * x * x);
  return divide_ftz(x, 1.0f + exp2_ftz(-two_u_log2e));
}

__device__ __forceinline__ float silu(float x) {
  return divide_ftz(x, 1.0f + exp2_ftz(-1.4426950408889634f * x));  // e^-x = 2^(-x log2 e)
}

}  // namespace perfgate::cuda::kernels

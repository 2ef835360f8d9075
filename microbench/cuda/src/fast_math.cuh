#pragma once
// The special-function unit's exponential and reciprocal without IEEE subnormal handling. exp2f,
// __expf and __fdividef compile to ex2.approx.f32 / div.approx.f32, whose non-flushing forms wrap
// the unit's instruction in a range test and rescaling so that a subnormal result survives; the
// kernels here sum or store values against terms of order 1, where a result below 2^-126 and 0 are
// the same. Without --use_fast_math (this project compiles IEEE by default) the flushing forms are
// only reachable as PTX.

namespace perfgate::cuda::kernels {

// 2^x; subnormal results flushed to zero.
__device__ __forceinline__ float exp2_ftz(float x) {
  float y;
  asm("ex2.approx.ftz.f32 %0, %1;" : "=f"(y) : "f"(x));
  return y;
}

// a / b to 2 ulp; subnormal inputs and results flushed to zero. An infinite b gives 0 (a finite).
__device__ __forceinline__ float divide_ftz(float a, float b) {
  float y;
  asm("div.approx.ftz.f32 %0, %1, %2;" : "=f"(y) : "f"(a), "f"(b));
  return y;
}

}  // namespace perfgate::cuda::kernels

#pragma once
// A small cache-blocked fp32 GEMM, the step proxy's CPU compute: C = alpha·op(A)·op(B) + beta·C,
// row-major, with leading dimensions so heads can be addressed inside packed QKV buffers.
namespace perfgate::step_proxy {

struct Matrix {
  const float* data;
  int ld;          // row stride
  bool transposed;  // use the transpose of the stored matrix
  float at(int r, int c) const { return transposed ? data[c * ld + r] : data[r * ld + c]; }
};

// op(A) is m×k, op(B) is k×n, C is m×n with row stride ldc.
void gemm(int m, int n, int k, float alpha, Matrix a, Matrix b, float beta, float* c, int ldc);

inline double gemm_flops(int m, int n, int k) { return 2.0 * m * n * k; }

}  // namespace perfgate::step_proxy

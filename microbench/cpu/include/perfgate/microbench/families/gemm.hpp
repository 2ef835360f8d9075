#pragma once
// GEMM over the projection shapes of a transformer layer: C[m,n] = A[m,k] · B[k,n] (+ bias, GeLU).
#include <string>
#include <vector>

#include "perfgate/microbench/families/common.hpp"

namespace perfgate::microbench {

// Axes: model (tiny|gpt2-small|llama-7b), proj (qkv|out|up|down), tokens (m),
// epilogue (none|bias_gelu), dtype. n and k follow from model and proj.
struct GemmShape {
  std::size_t m = 0, n = 0, k = 0;
};
GemmShape gemm_shape(const CaseParams& p);  // throws InputError on an unknown model or proj

struct GemmProblem : Problem {
  GemmShape s;
  bool bias_gelu = false;
  DType dtype = DType::f32;
  std::vector<float> a, b, bias;  // a row-major [m,k], b row-major [k,n]
  GemmProblem(const CaseParams& p, Rng& rng);
  std::vector<double> reference() const override;
  DType output_dtype() const override { return dtype; }
};

}  // namespace perfgate::microbench

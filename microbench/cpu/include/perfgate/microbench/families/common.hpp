#pragma once
// Small pieces shared by the family definitions and their CPU implementations.
#include <cmath>
#include <cstddef>
#include <vector>

#include "perfgate/microbench/registry.hpp"

namespace perfgate::microbench {

// Rounds every value to the storage dtype (emulated bf16/f16 storage on CPU).
inline void round_all(DType t, std::vector<float>& v) {
  if (t == DType::f32) return;
  for (auto& x : v) x = round_to(t, x);
}

// Seeded inputs already rounded to the storage dtype.
inline std::vector<float> stored(Rng& rng, DType t, std::size_t n, float lo = 0.25f,
                                 float hi = 1.0f) {
  auto v = rng.floats(static_cast<std::int64_t>(n), lo, hi);
  round_all(t, v);
  return v;
}

inline std::size_t count(const CaseParams& p, const char* axis) {
  return static_cast<std::size_t>(p.integer(axis));
}

inline DType dtype_of(const CaseParams& p) {
  return p.has("dtype") ? dtype_from_string(p.text("dtype")) : DType::f32;
}

// GeLU, tanh approximation (as in GPT-2 and most fused bias+GeLU kernels).
inline float gelu(float x) {
  const float c = 0.7978845608f;  // sqrt(2/pi)
  return 0.5f * x * (1.0f + std::tanh(c * (x + 0.044715f * x * x * x)));
}
inline double gelu(double x) {
  const double c = 0.79788456080286536;
  return 0.5 * x * (1.0 + std::tanh(c * (x + 0.044715 * x * x * x)));
}

}  // namespace perfgate::microbench

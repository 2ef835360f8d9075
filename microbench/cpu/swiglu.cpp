// SwiGLU: y = silu(gate) · up, gate and up the two halves of each input row.
#include <cmath>

#include "perfgate/microbench/families/fused_ops.hpp"

namespace perfgate::microbench {

SwigluProblem::SwigluProblem(const CaseParams& p, Rng& rng)
    : RowsProblem(p), x(stored(rng, dtype, 2 * rows * cols)) {}

std::vector<double> SwigluProblem::reference() const {
  std::vector<double> out(rows * cols);
  for (std::size_t i = 0; i < rows; ++i)
    for (std::size_t j = 0; j < cols; ++j) {
      const double g = x[i * 2 * cols + j], u = x[i * 2 * cols + cols + j];
      out[i * cols + j] = g / (1.0 + std::exp(-g)) * u;
    }
  return out;
}

namespace {

inline float silu(float g) {
  return g / (1.0f + std::exp(-g));
}

// Two kernels: silu(gate) to a temporary, then the product with up.
class SwigluUnfused final : public HostInstance {
 public:
  explicit SwigluUnfused(const SwigluProblem& p)
      : HostInstance(p.rows * p.cols), p_(p), tmp_(p.rows * p.cols) {}
  void run() override {
    const std::size_t c = p_.cols;
    for (std::size_t r = 0; r < p_.rows; ++r)
      for (std::size_t j = 0; j < c; ++j)
        tmp_[r * c + j] = round_to(p_.dtype, silu(p_.x[r * 2 * c + j]));
    for (std::size_t r = 0; r < p_.rows; ++r)
      for (std::size_t j = 0; j < c; ++j)
        out_[r * c + j] = round_to(p_.dtype, tmp_[r * c + j] * p_.x[r * 2 * c + c + j]);
  }

 private:
  const SwigluProblem& p_;
  std::vector<float> tmp_;
};

class SwigluFused final : public HostInstance {
 public:
  explicit SwigluFused(const SwigluProblem& p) : HostInstance(p.rows * p.cols), p_(p) {}
  void run() override {
    const std::size_t c = p_.cols;
    for (std::size_t r = 0; r < p_.rows; ++r) {
      const float* g = &p_.x[r * 2 * c];
      const float* u = g + c;
      for (std::size_t j = 0; j < c; ++j) out_[r * c + j] = round_to(p_.dtype, silu(g[j]) * u[j]);
    }
  }

 private:
  const SwigluProblem& p_;
};

}  // namespace

PERFGATE_FAMILY(swiglu, SwigluProblem) {
  family.describe("SwiGLU activation: silu(gate) * up")
      .int_axis("rows", {4096, 16384})
      .int_axis("cols", {4096})
      .string_axis("dtype", {"bf16"})
      // exp, add, divide, multiply ×2; gate, up in, y out
      .workload(rows_workload(5, 3));
}
PERFGATE_IMPLEMENTATION(swiglu, SwigluProblem, cpu, unfused) {
  return std::make_unique<SwigluUnfused>(problem);
}
PERFGATE_IMPLEMENTATION(swiglu, SwigluProblem, cpu, fused) {
  return std::make_unique<SwigluFused>(problem);
}

}  // namespace perfgate::microbench

// RMSNorm with residual add: y = (x + r) / rms(x + r) · w.
#include <cmath>

#include "perfgate/microbench/families/fused_ops.hpp"

namespace perfgate::microbench {

RmsNormProblem::RmsNormProblem(const CaseParams& p, Rng& rng)
    : RowsProblem(p),
      x(stored(rng, dtype, rows * cols)),
      residual(stored(rng, dtype, rows * cols)),
      weight(stored(rng, dtype, cols)) {}

std::vector<double> RmsNormProblem::reference() const {
  std::vector<double> out(2 * rows * cols);
  for (std::size_t i = 0; i < rows; ++i) {
    double ss = 0;
    for (std::size_t j = 0; j < cols; ++j) {
      const double s = double(x[i * cols + j]) + residual[i * cols + j];
      out[rows * cols + i * cols + j] = s;
      ss += s * s;
    }
    const double inv = 1.0 / std::sqrt(ss / static_cast<double>(cols) + kNormEps);
    for (std::size_t j = 0; j < cols; ++j)
      out[i * cols + j] = out[rows * cols + i * cols + j] * inv * weight[j];
  }
  return out;
}

namespace {

// Three kernels: add (writes the sum), sum of squares per row, scale.
class RmsNormUnfused final : public HostInstance {
 public:
  explicit RmsNormUnfused(const RmsNormProblem& p)
      : HostInstance(2 * p.rows * p.cols), p_(p), inv_(p.rows) {}
  void run() override {
    const std::size_t n = p_.rows * p_.cols, cols = p_.cols;
    float* sum = &out_[n];
    for (std::size_t i = 0; i < n; ++i) sum[i] = round_to(p_.dtype, p_.x[i] + p_.residual[i]);
    for (std::size_t r = 0; r < p_.rows; ++r) {
      float ss = 0;
      for (std::size_t j = 0; j < cols; ++j) ss += sum[r * cols + j] * sum[r * cols + j];
      inv_[r] = 1.0f / std::sqrt(ss / static_cast<float>(cols) + kNormEps);
    }
    for (std::size_t r = 0; r < p_.rows; ++r)
      for (std::size_t j = 0; j < cols; ++j)
        out_[r * cols + j] = round_to(p_.dtype, sum[r * cols + j] * inv_[r] * p_.weight[j]);
  }

 private:
  const RmsNormProblem& p_;
  std::vector<float> inv_;
};

// One pass per row: the sum stays in cache between the reduction and the scale.
class RmsNormFused final : public HostInstance {
 public:
  explicit RmsNormFused(const RmsNormProblem& p) : HostInstance(2 * p.rows * p.cols), p_(p) {}
  void run() override {
    const std::size_t cols = p_.cols, n = p_.rows * cols;
    for (std::size_t r = 0; r < p_.rows; ++r) {
      const float* x = &p_.x[r * cols];
      const float* res = &p_.residual[r * cols];
      float* sum = &out_[n + r * cols];
      float ss = 0;
      for (std::size_t j = 0; j < cols; ++j) {
        sum[j] = round_to(p_.dtype, x[j] + res[j]);
        ss += sum[j] * sum[j];
      }
      const float inv = 1.0f / std::sqrt(ss / static_cast<float>(cols) + kNormEps);
      float* y = &out_[r * cols];
      for (std::size_t j = 0; j < cols; ++j) y[j] = round_to(p_.dtype, sum[j] * inv * p_.weight[j]);
    }
  }

 private:
  const RmsNormProblem& p_;
};

}  // namespace

PERFGATE_FAMILY(rmsnorm, RmsNormProblem) {
  family.describe("RMSNorm with residual add")
      .int_axis("rows", {4096, 16384})
      .int_axis("cols", {1024, 4096})
      .string_axis("dtype", {"bf16"})
      // add, square-accumulate, 2 multiplies; x, r in; y, x+r out
      .workload(rows_workload(5, 4));
}
PERFGATE_IMPLEMENTATION(rmsnorm, RmsNormProblem, cpu, unfused) {
  return std::make_unique<RmsNormUnfused>(problem);
}
PERFGATE_IMPLEMENTATION(rmsnorm, RmsNormProblem, cpu, fused) {
  return std::make_unique<RmsNormFused>(problem);
}

}  // namespace perfgate::microbench

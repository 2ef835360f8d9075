// LayerNorm with residual add: y = (s − mean(s)) / sqrt(var(s) + eps) · w + b, s = x + r.
#include <cmath>

#include "perfgate/microbench/families/fused_ops.hpp"

namespace perfgate::microbench {

LayerNormProblem::LayerNormProblem(const CaseParams& p, Rng& rng)
    : RowsProblem(p),
      x(stored(rng, dtype, rows * cols)),
      residual(stored(rng, dtype, rows * cols)),
      weight(stored(rng, dtype, cols)),
      bias(stored(rng, dtype, cols)) {}

std::vector<double> LayerNormProblem::reference() const {
  std::vector<double> out(2 * rows * cols);
  const auto c = static_cast<double>(cols);
  for (std::size_t i = 0; i < rows; ++i) {
    double* s = &out[rows * cols + i * cols];
    double mean = 0, var = 0;
    for (std::size_t j = 0; j < cols; ++j)
      mean += (s[j] = double(x[i * cols + j]) + residual[i * cols + j]);
    mean /= c;
    for (std::size_t j = 0; j < cols; ++j) var += (s[j] - mean) * (s[j] - mean);
    const double inv = 1.0 / std::sqrt(var / c + kNormEps);
    for (std::size_t j = 0; j < cols; ++j)
      out[i * cols + j] = (s[j] - mean) * inv * weight[j] + bias[j];
  }
  return out;
}

namespace {

// Kernels as a framework would launch them: add, mean, variance, normalise-and-affine.
class LayerNormUnfused final : public HostInstance {
 public:
  explicit LayerNormUnfused(const LayerNormProblem& p)
      : HostInstance(2 * p.rows * p.cols), p_(p), mean_(p.rows), inv_(p.rows) {}
  void run() override {
    const std::size_t n = p_.rows * p_.cols, cols = p_.cols;
    const auto c = static_cast<float>(cols);
    float* s = &out_[n];
    for (std::size_t i = 0; i < n; ++i) s[i] = round_to(p_.dtype, p_.x[i] + p_.residual[i]);
    for (std::size_t r = 0; r < p_.rows; ++r) {
      float acc = 0;
      for (std::size_t j = 0; j < cols; ++j) acc += s[r * cols + j];
      mean_[r] = acc / c;
    }
    for (std::size_t r = 0; r < p_.rows; ++r) {
      float acc = 0;
      for (std::size_t j = 0; j < cols; ++j)
        acc += (s[r * cols + j] - mean_[r]) * (s[r * cols + j] - mean_[r]);
      inv_[r] = 1.0f / std::sqrt(acc / c + kNormEps);
    }
    for (std::size_t r = 0; r < p_.rows; ++r)
      for (std::size_t j = 0; j < cols; ++j)
        out_[r * cols + j] =
            round_to(p_.dtype, (s[r * cols + j] - mean_[r]) * inv_[r] * p_.weight[j] + p_.bias[j]);
  }

 private:
  const LayerNormProblem& p_;
  std::vector<float> mean_, inv_;
};

// One row at a time: add and mean in one sweep, variance and output from cache.
class LayerNormFused final : public HostInstance {
 public:
  explicit LayerNormFused(const LayerNormProblem& p) : HostInstance(2 * p.rows * p.cols), p_(p) {}
  void run() override {
    const std::size_t cols = p_.cols, n = p_.rows * cols;
    const auto c = static_cast<float>(cols);
    for (std::size_t r = 0; r < p_.rows; ++r) {
      float* s = &out_[n + r * cols];
      float mean = 0;
      for (std::size_t j = 0; j < cols; ++j)
        mean += (s[j] = round_to(p_.dtype, p_.x[r * cols + j] + p_.residual[r * cols + j]));
      mean /= c;
      float var = 0;
      for (std::size_t j = 0; j < cols; ++j) var += (s[j] - mean) * (s[j] - mean);
      const float inv = 1.0f / std::sqrt(var / c + kNormEps);
      float* y = &out_[r * cols];
      for (std::size_t j = 0; j < cols; ++j)
        y[j] = round_to(p_.dtype, (s[j] - mean) * inv * p_.weight[j] + p_.bias[j]);
    }
  }

 private:
  const LayerNormProblem& p_;
};

}  // namespace

PERFGATE_FAMILY(layernorm, LayerNormProblem) {
  family.describe("LayerNorm with residual add")
      .int_axis("rows", {4096, 16384})
      .int_axis("cols", {1024, 4096})
      .string_axis("dtype", {"bf16"})
      // add, sum, subtract mean, square-accumulate (2), normalise, ·w, +b; x, r in; y, x+r out
      .workload(rows_workload(8, 4));
}
PERFGATE_IMPLEMENTATION(layernorm, LayerNormProblem, cpu, unfused) {
  return std::make_unique<LayerNormUnfused>(problem);
}
PERFGATE_IMPLEMENTATION(layernorm, LayerNormProblem, cpu, fused) {
  return std::make_unique<LayerNormFused>(problem);
}

}  // namespace perfgate::microbench

// Row softmax.
#include <algorithm>
#include <cmath>

#include "perfgate/microbench/families/fused_ops.hpp"

namespace perfgate::microbench {

SoftmaxProblem::SoftmaxProblem(const CaseParams& p, Rng& rng)
    : RowsProblem(p), x(stored(rng, dtype, rows * cols, 0.25f, 4.0f)) {}

std::vector<double> SoftmaxProblem::reference() const {
  std::vector<double> out(rows * cols);
  for (std::size_t i = 0; i < rows; ++i) {
    const float* row = &x[i * cols];
    const double mx = *std::max_element(row, row + cols);
    double sum = 0;
    for (std::size_t j = 0; j < cols; ++j) sum += (out[i * cols + j] = std::exp(row[j] - mx));
    for (std::size_t j = 0; j < cols; ++j) out[i * cols + j] /= sum;
  }
  return out;
}

namespace {

// Kernels as written op by op: row max, exp(x − max) to memory, row sum, divide.
class SoftmaxUnfused final : public HostInstance {
 public:
  explicit SoftmaxUnfused(const SoftmaxProblem& p)
      : HostInstance(p.rows * p.cols), p_(p), max_(p.rows), sum_(p.rows) {}
  void run() override {
    const std::size_t c = p_.cols;
    for (std::size_t r = 0; r < p_.rows; ++r)
      max_[r] = *std::max_element(&p_.x[r * c], &p_.x[r * c] + c);
    for (std::size_t r = 0; r < p_.rows; ++r)
      for (std::size_t j = 0; j < c; ++j) out_[r * c + j] = std::exp(p_.x[r * c + j] - max_[r]);
    for (std::size_t r = 0; r < p_.rows; ++r) {
      float s = 0;
      for (std::size_t j = 0; j < c; ++j) s += out_[r * c + j];
      sum_[r] = s;
    }
    for (std::size_t r = 0; r < p_.rows; ++r)
      for (std::size_t j = 0; j < c; ++j)
        out_[r * c + j] = round_to(p_.dtype, out_[r * c + j] / sum_[r]);
  }

 private:
  const SoftmaxProblem& p_;
  std::vector<float> max_, sum_;
};

// Row at a time: max, exp-and-sum, scale run back to back over one row while it is in cache,
// where the unfused kernels each sweep the whole matrix (and memory) once.
class SoftmaxFused final : public HostInstance {
 public:
  explicit SoftmaxFused(const SoftmaxProblem& p) : HostInstance(p.rows * p.cols), p_(p) {}
  void run() override {
    const std::size_t c = p_.cols;
    for (std::size_t r = 0; r < p_.rows; ++r) {
      const float* x = &p_.x[r * c];
      float* y = &out_[r * c];
      float mx = x[0];
      for (std::size_t j = 1; j < c; ++j) mx = std::max(mx, x[j]);
      float sum = 0;
      for (std::size_t j = 0; j < c; ++j) sum += (y[j] = std::exp(x[j] - mx));
      const float inv = 1.0f / sum;
      for (std::size_t j = 0; j < c; ++j) y[j] = round_to(p_.dtype, y[j] * inv);
    }
  }

 private:
  const SoftmaxProblem& p_;
};

}  // namespace

PERFGATE_FAMILY(softmax, SoftmaxProblem) {
  family.describe("row softmax")
      .int_axis("rows", {4096, 16384})
      .int_axis("cols", {1024, 4096})
      .string_axis("dtype", {"f32"})
      // max, subtract+exp, sum, divide; x in, y out
      .workload(rows_workload(4, 2));
}
PERFGATE_IMPLEMENTATION(softmax, SoftmaxProblem, cpu, unfused) {
  return std::make_unique<SoftmaxUnfused>(problem);
}
PERFGATE_IMPLEMENTATION(softmax, SoftmaxProblem, cpu, fused) {
  return std::make_unique<SoftmaxFused>(problem);
}

}  // namespace perfgate::microbench

// Bias + GeLU: y = gelu(x + bias).
#include "perfgate/microbench/families/fused_ops.hpp"

namespace perfgate::microbench {

BiasGeluProblem::BiasGeluProblem(const CaseParams& p, Rng& rng)
    : RowsProblem(p), x(stored(rng, dtype, rows * cols)), bias(stored(rng, dtype, cols)) {}

std::vector<double> BiasGeluProblem::reference() const {
  std::vector<double> out(rows * cols);
  for (std::size_t i = 0; i < rows; ++i)
    for (std::size_t j = 0; j < cols; ++j)
      out[i * cols + j] = gelu(double(x[i * cols + j]) + bias[j]);
  return out;
}

namespace {

// Two kernels: the bias add writes a temporary, GeLU reads it back.
class BiasGeluUnfused final : public HostInstance {
 public:
  explicit BiasGeluUnfused(const BiasGeluProblem& p)
      : HostInstance(p.rows * p.cols), p_(p), tmp_(p.rows * p.cols) {}
  void run() override {
    for (std::size_t r = 0; r < p_.rows; ++r)
      for (std::size_t j = 0; j < p_.cols; ++j)
        tmp_[r * p_.cols + j] = round_to(p_.dtype, p_.x[r * p_.cols + j] + p_.bias[j]);
    for (std::size_t i = 0; i < tmp_.size(); ++i) out_[i] = round_to(p_.dtype, gelu(tmp_[i]));
  }

 private:
  const BiasGeluProblem& p_;
  std::vector<float> tmp_;
};

class BiasGeluFused final : public HostInstance {
 public:
  explicit BiasGeluFused(const BiasGeluProblem& p) : HostInstance(p.rows * p.cols), p_(p) {}
  void run() override {
    for (std::size_t r = 0; r < p_.rows; ++r)
      for (std::size_t j = 0; j < p_.cols; ++j)
        out_[r * p_.cols + j] = round_to(p_.dtype, gelu(p_.x[r * p_.cols + j] + p_.bias[j]));
  }

 private:
  const BiasGeluProblem& p_;
};

}  // namespace

PERFGATE_FAMILY(bias_gelu, BiasGeluProblem) {
  family.describe("bias add + GeLU (tanh approximation)")
      .int_axis("rows", {4096, 16384})
      .int_axis("cols", {4096})
      .string_axis("dtype", {"bf16"})
      // add + 8 for the tanh-form GeLU (tanh counted as 1); x in, y out
      .workload(rows_workload(9, 2));
}
PERFGATE_IMPLEMENTATION(bias_gelu, BiasGeluProblem, cpu, unfused) {
  return std::make_unique<BiasGeluUnfused>(problem);
}
PERFGATE_IMPLEMENTATION(bias_gelu, BiasGeluProblem, cpu, fused) {
  return std::make_unique<BiasGeluFused>(problem);
}

}  // namespace perfgate::microbench

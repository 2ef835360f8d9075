// Cross-entropy loss per row: log-softmax + negative log-likelihood of the label.
#include <algorithm>
#include <cmath>

#include "perfgate/microbench/families/fused_ops.hpp"

namespace perfgate::microbench {

CrossEntropyProblem::CrossEntropyProblem(const CaseParams& p, Rng& rng)
    : rows(count(p, "rows")),
      vocab(count(p, "vocab")),
      logits(rng.floats(static_cast<std::int64_t>(rows * vocab), 0.25f, 4.0f)) {
  for (std::size_t r = 0; r < rows; ++r)
    labels.push_back(rng.integer(0, static_cast<std::int64_t>(vocab) - 1));
}

std::vector<double> CrossEntropyProblem::reference() const {
  std::vector<double> loss(rows);
  for (std::size_t r = 0; r < rows; ++r) {
    const float* x = &logits[r * vocab];
    const double mx = *std::max_element(x, x + vocab);
    double sum = 0;
    for (std::size_t j = 0; j < vocab; ++j) sum += std::exp(x[j] - mx);
    loss[r] = mx + std::log(sum) - x[labels[r]];
  }
  return loss;
}

namespace {

// log_softmax writes the whole [rows, vocab] matrix, then nll_loss gathers one value per row.
class CrossEntropyUnfused final : public HostInstance {
 public:
  explicit CrossEntropyUnfused(const CrossEntropyProblem& p)
      : HostInstance(p.rows), p_(p), logp_(p.rows * p.vocab) {}
  void run() override {
    const std::size_t c = p_.vocab;
    for (std::size_t r = 0; r < p_.rows; ++r) {
      const float* x = &p_.logits[r * c];
      const float mx = *std::max_element(x, x + c);
      float sum = 0;
      for (std::size_t j = 0; j < c; ++j) sum += std::exp(x[j] - mx);
      const float lse = mx + std::log(sum);
      for (std::size_t j = 0; j < c; ++j) logp_[r * c + j] = x[j] - lse;
    }
    for (std::size_t r = 0; r < p_.rows; ++r)
      out_[r] = -logp_[r * c + static_cast<std::size_t>(p_.labels[r])];
  }

 private:
  const CrossEntropyProblem& p_;
  std::vector<float> logp_;
};

// Row at a time, nothing materialised: max and sum of exponentials over the row while it is
// in cache, then the label's term.
class CrossEntropyFused final : public HostInstance {
 public:
  explicit CrossEntropyFused(const CrossEntropyProblem& p) : HostInstance(p.rows), p_(p) {}
  void run() override {
    const std::size_t c = p_.vocab;
    for (std::size_t r = 0; r < p_.rows; ++r) {
      const float* x = &p_.logits[r * c];
      float mx = x[0];
      for (std::size_t j = 1; j < c; ++j) mx = std::max(mx, x[j]);
      float sum = 0;
      for (std::size_t j = 0; j < c; ++j) sum += std::exp(x[j] - mx);
      out_[r] = mx + std::log(sum) - x[static_cast<std::size_t>(p_.labels[r])];
    }
  }

 private:
  const CrossEntropyProblem& p_;
};

}  // namespace

PERFGATE_FAMILY(cross_entropy, CrossEntropyProblem) {
  family.describe("cross-entropy: log-softmax + NLL per row")
      .int_axis("rows", {2048, 8192})
      .int_axis("vocab", {32000, 128256})
      .workload([](const CaseParams& p) {
        const auto n = static_cast<double>(p.integer("rows") * p.integer("vocab"));
        return Workload{
            4 * n, n * 4 + static_cast<double>(p.integer("rows")) * 12};  // logits in; labels, loss
      });
}
PERFGATE_IMPLEMENTATION(cross_entropy, CrossEntropyProblem, cpu, unfused) {
  return std::make_unique<CrossEntropyUnfused>(problem);
}
PERFGATE_IMPLEMENTATION(cross_entropy, CrossEntropyProblem, cpu, fused) {
  return std::make_unique<CrossEntropyFused>(problem);
}

}  // namespace perfgate::microbench

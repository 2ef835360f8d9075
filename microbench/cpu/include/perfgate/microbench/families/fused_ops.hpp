#pragma once
// Problems of the fused-operator families. Row-wise operators share the axes rows, cols and
// dtype; each family's file (microbench/cpu/<family>.cpp) holds its model, reference and
// the CPU variants "unfused" (one pass per elementary kernel, intermediates in memory) and
// "fused" (one pass, intermediates in registers).
#include <cstdint>
#include <vector>

#include "perfgate/microbench/families/common.hpp"

namespace perfgate::microbench {

struct RowsProblem : Problem {
  std::size_t rows = 0, cols = 0;
  DType dtype = DType::f32;
  explicit RowsProblem(const CaseParams& p)
      : rows(count(p, "rows")), cols(count(p, "cols")), dtype(dtype_of(p)) {}
  DType output_dtype() const override { return dtype; }
};

// The cost model of an elementwise-per-row operator: flops_per_element arithmetic operations
// and tensors_moved full [rows, cols] tensors of the case's dtype read or written once each.
inline WorkloadModel rows_workload(double flops_per_element, double tensors_moved) {
  return [=](const CaseParams& p) {
    const auto n = static_cast<double>(p.integer("rows") * p.integer("cols"));
    const auto e = static_cast<double>(dtype_size(dtype_of(p)));
    return Workload{flops_per_element * n, tensors_moved * n * e};
  };
}

// y = norm(x + residual) · w (+ b); output [y | x + residual], both [rows, cols].
inline constexpr float kNormEps = 1e-5f;
struct RmsNormProblem : RowsProblem {
  std::vector<float> x, residual, weight;
  RmsNormProblem(const CaseParams& p, Rng& rng);
  std::vector<double> reference() const override;
};
struct LayerNormProblem : RowsProblem {
  std::vector<float> x, residual, weight, bias;
  LayerNormProblem(const CaseParams& p, Rng& rng);
  std::vector<double> reference() const override;
};

// y = gelu(x + bias), x [rows, cols], bias [cols].
struct BiasGeluProblem : RowsProblem {
  std::vector<float> x, bias;
  BiasGeluProblem(const CaseParams& p, Rng& rng);
  std::vector<double> reference() const override;
};

// y = silu(gate) · up; x [rows, 2·cols] holds gate | up per row; y [rows, cols].
struct SwigluProblem : RowsProblem {
  std::vector<float> x;
  SwigluProblem(const CaseParams& p, Rng& rng);
  std::vector<double> reference() const override;
};

// y = softmax(x) along each row.
struct SoftmaxProblem : RowsProblem {
  std::vector<float> x;
  SoftmaxProblem(const CaseParams& p, Rng& rng);
  std::vector<double> reference() const override;
};

// Rotary position embedding (rotate-half form, base 10000) of x [tokens, heads, d]; token t
// sits at position t mod seq.
struct RopeProblem : Problem {
  std::size_t tokens = 0, heads = 0, d = 0, seq = 0;
  std::vector<float> x;
  RopeProblem(const CaseParams& p, Rng& rng);
  std::vector<double> reference() const override;
  double angle(std::size_t token, std::size_t pair) const;  // position · base^(−2·pair/d)
};

// One AdamW step over a list of tensors (sizes vary: size · (1 + i mod 3)); output is
// [param | m | v] of every tensor in order.
struct AdamwHyper {
  float lr = 1e-3f, beta1 = 0.9f, beta2 = 0.999f, eps = 1e-8f, weight_decay = 0.01f;
  int step = 10;
};
struct AdamwProblem : Problem {
  AdamwHyper hyper;
  std::vector<std::vector<float>> param, grad, m, v;
  AdamwProblem(const CaseParams& p, Rng& rng);
  std::size_t total() const;
  std::vector<double> reference() const override;
};

// loss[r] = logsumexp(logits[r]) − logits[r][label[r]], logits [rows, vocab].
struct CrossEntropyProblem : Problem {
  std::size_t rows = 0, vocab = 0;
  std::vector<float> logits;
  std::vector<std::int64_t> labels;
  CrossEntropyProblem(const CaseParams& p, Rng& rng);
  std::vector<double> reference() const override;
};

}  // namespace perfgate::microbench

// GEMM over transformer projection shapes: family definition, double reference, CPU variants:
// naive (dot products, epilogue as a second pass), blocked (cache-blocked, epilogue as a
// second pass: the unfused baseline) and fused (blocked, epilogue applied to each hot tile).
#include "perfgate/microbench/families/gemm.hpp"
#include "perfgate/microbench/kernels/gemm.hpp"

#include <algorithm>
#include <map>

#include <fmt/format.h>

#include "perfgate/core/error.hpp"

namespace perfgate::microbench {

namespace {
struct ModelDims {
  std::size_t hidden, ffn;
};
// Hidden and MLP sizes of the model presets (llama-7b: the SwiGLU up-projection width).
const std::map<std::string, ModelDims>& model_presets() {
  static const std::map<std::string, ModelDims> presets{
      {"tiny", {256, 1024}}, {"gpt2-small", {768, 3072}}, {"llama-7b", {4096, 11008}}};
  return presets;
}
}  // namespace

GemmShape gemm_shape(const CaseParams& p) {
  const auto it = model_presets().find(p.text("model"));
  if (it == model_presets().end())
    throw InputError(fmt::format("gemm: parameter 'model': unknown preset '{}'", p.text("model")));
  const auto [hidden, ffn] = it->second;
  const std::size_t m = count(p, "tokens");
  const std::string& proj = p.text("proj");
  if (proj == "qkv") return {m, 3 * hidden, hidden};
  if (proj == "out") return {m, hidden, hidden};
  if (proj == "up") return {m, ffn, hidden};
  if (proj == "down") return {m, hidden, ffn};
  throw InputError(fmt::format("gemm: parameter 'proj': unknown projection '{}'", proj));
}

GemmProblem::GemmProblem(const CaseParams& p, Rng& rng)
    : s(gemm_shape(p)), bias_gelu(p.text("epilogue") == "bias_gelu"), dtype(dtype_of(p)) {
  a = stored(rng, dtype, s.m * s.k);
  b = stored(rng, dtype, s.k * s.n);
  bias = stored(rng, dtype, s.n);
}

std::vector<double> GemmProblem::reference() const {
  std::vector<double> c(s.m * s.n, 0.0);
  for (std::size_t i = 0; i < s.m; ++i)
    for (std::size_t kk = 0; kk < s.k; ++kk) {
      const double aik = a[i * s.k + kk];
      for (std::size_t j = 0; j < s.n; ++j) c[i * s.n + j] += aik * b[kk * s.n + j];
    }
  if (bias_gelu)
    for (std::size_t i = 0; i < s.m; ++i)
      for (std::size_t j = 0; j < s.n; ++j) c[i * s.n + j] = gelu(c[i * s.n + j] + double(bias[j]));
  return c;
}

namespace {

class GemmBase : public HostInstance {
 public:
  explicit GemmBase(const GemmProblem& p) : HostInstance(p.s.m * p.s.n), p_(p) {}

 protected:
  // Bias + GeLU (or nothing) and the storage rounding over rows [i0, i1) and columns [j0, j1).
  void epilogue(std::size_t i0, std::size_t i1, std::size_t j0, std::size_t j1) {
    const std::size_t n = p_.s.n;
    for (std::size_t i = i0; i < i1; ++i) {
      float* row = &out_[i * n];
      if (p_.bias_gelu)
        for (std::size_t j = j0; j < j1; ++j) row[j] = gelu(row[j] + p_.bias[j]);
      for (std::size_t j = j0; j < j1; ++j) row[j] = round_to(p_.dtype, row[j]);
    }
  }
  const GemmProblem& p_;
};

class NaiveGemm final : public GemmBase {
 public:
  using GemmBase::GemmBase;
  void run() override {
    const auto [m, n, k] = p_.s;
    for (std::size_t i = 0; i < m; ++i)
      for (std::size_t j = 0; j < n; ++j) {
        float acc = 0;
        for (std::size_t kk = 0; kk < k; ++kk) acc += p_.a[i * k + kk] * p_.b[kk * n + j];
        out_[i * n + j] = acc;
      }
    epilogue(0, m, 0, n);
  }
};

// The shared blocked kernel; the fused variant applies the epilogue to each tile while it is
// still in cache, the unfused one sweeps C a second time, as a separate kernel would.
class BlockedGemm final : public GemmBase {
 public:
  BlockedGemm(const GemmProblem& p, bool fuse_epilogue) : GemmBase(p), fuse_(fuse_epilogue) {}
  void run() override {
    const auto [m, n, k] = p_.s;
    const kernels::MatrixView a{p_.a.data(), k}, b{p_.b.data(), n};
    kernels::TileDone fused;
    if (fuse_)
      fused = [this](std::size_t i0, std::size_t i1, std::size_t j0, std::size_t j1) {
        epilogue(i0, i1, j0, j1);
      };
    kernels::gemm_blocked(m, n, k, 1.0f, a, b, 0.0f, out_.data(), n, fused);
    if (!fuse_) epilogue(0, m, 0, n);
  }

 private:
  bool fuse_;
};

}  // namespace

PERFGATE_FAMILY(gemm, GemmProblem) {
  family.describe("C = A·B over transformer projection shapes, optional bias+GeLU epilogue")
      .string_axis("model", {"gpt2-small", "llama-7b"})
      .string_axis("proj", {"qkv", "out", "up", "down"})
      .int_axis("tokens", {512, 2048})
      .string_axis("epilogue", {"none", "bias_gelu"})
      .string_axis("dtype", {"bf16"})
      // The fused variant only differs when there is an epilogue to fuse.
      .filter([](const CaseParams& p) {
        return !(p.has("impl") && p.text("impl") == "fused" && p.text("epilogue") == "none");
      })
      .workload([](const CaseParams& p) {
        const auto s = gemm_shape(p);
        const auto m = static_cast<double>(s.m), n = static_cast<double>(s.n),
                   k = static_cast<double>(s.k);
        const auto elem = static_cast<double>(dtype_size(dtype_of(p)));
        const bool epi = p.text("epilogue") == "bias_gelu";
        return Workload{2 * m * n * k + (epi ? m * n : 0.0),
                        (m * k + k * n + m * n + (epi ? n : 0.0)) * elem};
      });
}

PERFGATE_IMPLEMENTATION(gemm, GemmProblem, cpu, naive) {
  return std::make_unique<NaiveGemm>(problem);
}
PERFGATE_IMPLEMENTATION(gemm, GemmProblem, cpu, blocked) {
  return std::make_unique<BlockedGemm>(problem, false);
}
PERFGATE_IMPLEMENTATION(gemm, GemmProblem, cpu, fused) {
  return std::make_unique<BlockedGemm>(problem, true);
}

}  // namespace perfgate::microbench

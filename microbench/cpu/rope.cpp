// Rotary position embedding, rotate-half form: y = x·cos θ + rotate_half(x)·sin θ.
#include <cmath>

#include <fmt/format.h>

#include "perfgate/core/error.hpp"
#include "perfgate/microbench/families/fused_ops.hpp"

namespace perfgate::microbench {

RopeProblem::RopeProblem(const CaseParams& p, Rng& rng)
    : tokens(count(p, "tokens")), heads(count(p, "heads")), d(count(p, "d")), seq(count(p, "seq")) {
  if (d % 2 != 0 || seq == 0)
    throw InputError(fmt::format("rope: d={} must be even and seq > 0", d));
  x = rng.floats(static_cast<std::int64_t>(tokens * heads * d));
}

double RopeProblem::angle(std::size_t token, std::size_t pair) const {
  return static_cast<double>(token % seq) *
         std::pow(10000.0, -2.0 * static_cast<double>(pair) / static_cast<double>(d));
}

std::vector<double> RopeProblem::reference() const {
  std::vector<double> out(x.size());
  const std::size_t half = d / 2;
  for (std::size_t t = 0; t < tokens; ++t)
    for (std::size_t h = 0; h < heads; ++h) {
      const float* xi = &x[(t * heads + h) * d];
      double* yi = &out[(t * heads + h) * d];
      for (std::size_t i = 0; i < half; ++i) {
        const double a = angle(t, i), c = std::cos(a), s = std::sin(a);
        yi[i] = xi[i] * c - xi[i + half] * s;
        yi[i + half] = xi[i + half] * c + xi[i] * s;
      }
    }
  return out;
}

namespace {

// The cos/sin tables [seq, d] are built once, untimed, as a framework caches them.
class RopeBase : public HostInstance {
 public:
  explicit RopeBase(const RopeProblem& p)
      : HostInstance(p.x.size()), p_(p), cos_(p.seq * p.d), sin_(p.seq * p.d) {
    const std::size_t half = p.d / 2;
    for (std::size_t pos = 0; pos < p.seq; ++pos)
      for (std::size_t i = 0; i < half; ++i) {
        const double a = p.angle(pos, i);
        cos_[pos * p.d + i] = cos_[pos * p.d + i + half] = static_cast<float>(std::cos(a));
        const auto s = static_cast<float>(std::sin(a));
        sin_[pos * p.d + i] = -s;  // rotate_half puts −x2 in the first half
        sin_[pos * p.d + i + half] = s;
      }
  }

 protected:
  const RopeProblem& p_;
  std::vector<float> cos_, sin_;
};

// Three kernels: rotate_half(x) to a temporary, x·cos to the output, then += rot·sin.
class RopeUnfused final : public RopeBase {
 public:
  explicit RopeUnfused(const RopeProblem& p) : RopeBase(p), rot_(p.x.size()) {}
  void run() override {
    const std::size_t d = p_.d, half = d / 2, rows = p_.tokens * p_.heads;
    for (std::size_t r = 0; r < rows; ++r)
      for (std::size_t i = 0; i < half; ++i) {
        rot_[r * d + i] = p_.x[r * d + i + half];
        rot_[r * d + i + half] = p_.x[r * d + i];
      }
    for (std::size_t r = 0; r < rows; ++r) {
      const float* c = &cos_[(r / p_.heads % p_.seq) * d];
      for (std::size_t i = 0; i < d; ++i) out_[r * d + i] = p_.x[r * d + i] * c[i];
    }
    for (std::size_t r = 0; r < rows; ++r) {
      const float* s = &sin_[(r / p_.heads % p_.seq) * d];
      for (std::size_t i = 0; i < d; ++i) out_[r * d + i] += rot_[r * d + i] * s[i];
    }
  }

 private:
  std::vector<float> rot_;
};

class RopeFused final : public RopeBase {
 public:
  using RopeBase::RopeBase;
  void run() override {
    const std::size_t d = p_.d, half = d / 2;
    for (std::size_t t = 0; t < p_.tokens; ++t) {
      const float* c = &cos_[(t % p_.seq) * d];
      const float* s = &sin_[(t % p_.seq) * d];
      for (std::size_t h = 0; h < p_.heads; ++h) {
        const float* x = &p_.x[(t * p_.heads + h) * d];
        float* y = &out_[(t * p_.heads + h) * d];
        for (std::size_t i = 0; i < half; ++i) {
          y[i] = x[i] * c[i] + x[i + half] * s[i];
          y[i + half] = x[i + half] * c[i + half] + x[i] * s[i + half];
        }
      }
    }
  }
};

}  // namespace

PERFGATE_FAMILY(rope, RopeProblem) {
  family.describe("rotary position embedding (rotate-half)")
      .int_axis("tokens", {4096, 16384})
      .int_axis("heads", {32})
      .int_axis("d", {128})
      .int_axis("seq", {4096})
      .workload([](const CaseParams& p) {
        const auto n =
            static_cast<double>(p.integer("tokens") * p.integer("heads") * p.integer("d"));
        return Workload{3 * n, 2 * n * 4};  // two multiplies and an add per element; x in, y out
      });
}
PERFGATE_IMPLEMENTATION(rope, RopeProblem, cpu, unfused) {
  return std::make_unique<RopeUnfused>(problem);
}
PERFGATE_IMPLEMENTATION(rope, RopeProblem, cpu, fused) {
  return std::make_unique<RopeFused>(problem);
}

}  // namespace perfgate::microbench

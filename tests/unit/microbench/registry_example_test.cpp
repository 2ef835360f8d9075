// The worked example of registry.hpp (and docs/adding-a-benchmark.md), compiled and run.
#include <catch2/catch.hpp>

#include "perfgate/microbench/execute.hpp"
#include "perfgate/microbench/registry.hpp"

using namespace perfgate::microbench;

namespace {

struct AxpyProblem : Problem {
  std::vector<float> x, y0;
  float a = 0;
  AxpyProblem(const CaseParams& p, Rng& rng)
      : x(rng.floats(p.integer("n"))), y0(rng.floats(p.integer("n"))), a(rng.scalar()) {}
  std::vector<double> reference() const override {
    std::vector<double> y(x.size());
    for (std::size_t i = 0; i < x.size(); ++i) y[i] = double(a) * x[i] + y0[i];
    return y;
  }
};

class AxpyCpu final : public HostInstance {
 public:
  explicit AxpyCpu(const AxpyProblem& p) : HostInstance(p.x.size()), p_(p) {}
  void run() override {
    for (std::size_t i = 0; i < p_.x.size(); ++i) out_[i] = p_.a * p_.x[i] + p_.y0[i];
  }

 private:
  const AxpyProblem& p_;
};

// A deliberately wrong implementation: the check must catch it before any timing.
class AxpyWrong final : public HostInstance {
 public:
  explicit AxpyWrong(const AxpyProblem& p) : HostInstance(p.x.size()), p_(p) {}
  void run() override {
    for (std::size_t i = 0; i < p_.x.size(); ++i) out_[i] = p_.x[i] + p_.y0[i];
  }

 private:
  const AxpyProblem& p_;
};

// Writes nothing: the poisoned output must fail the check.
class AxpyLazy final : public HostInstance {
 public:
  explicit AxpyLazy(const AxpyProblem& p) : HostInstance(p.x.size()) {}
  void run() override {}
};

}  // namespace

PERFGATE_FAMILY(axpy, AxpyProblem) {
  family.describe("y = a*x + y0, streaming")
      .int_axis("n", {1 << 10, 1 << 12})
      .workload([](const CaseParams& p) {
        const double n = double(p.integer("n"));
        return Workload{.flops = 2 * n, .bytes = 3 * n * 4};
      });
}
PERFGATE_IMPLEMENTATION(axpy, AxpyProblem, cpu, plain) {
  return std::make_unique<AxpyCpu>(problem);
}
PERFGATE_IMPLEMENTATION(axpy, AxpyProblem, cpu, wrong) {
  return std::make_unique<AxpyWrong>(problem);
}
PERFGATE_IMPLEMENTATION(axpy, AxpyProblem, cpu, lazy) {
  return std::make_unique<AxpyLazy>(problem);
}

namespace {
CaseRequest quick(const std::string& variant) {
  CaseRequest c{"axpy", "cpu", variant, {{"n", "1000"}}, {}, 7, 1};
  c.policy.warmup_s = 0.001;
  c.policy.min_time_s = 0.002;
  c.policy.max_time_s = 0.05;
  return c;
}
}  // namespace

TEST_CASE("the worked example registers its family, axes and implementation") {
  const Family* f = Registry::instance().find("axpy");
  REQUIRE(f != nullptr);
  REQUIRE(f->axes().size() == 1);
  CHECK(f->axes()[0].values == std::vector<std::string>{"1024", "4096"});
  REQUIRE(f->implementations().size() == 3);
  CHECK(f->model(CaseParams(perfgate::Params{{"n", "10"}})).flops == 20);
}

TEST_CASE("the worked example runs: checked, warmed up, sampled, counters") {
  const auto r = execute_case(quick("plain"));
  INFO(r.message);
  REQUIRE(r.status == perfgate::ResultStatus::ok);
  CHECK(r.key.name() == "axpy/backend:cpu/impl:plain/n:1000");
  CHECK(r.samples.size() >= 7);
  CHECK(r.summary.median > 0);
  CHECK(r.extra.at("counters").at("flops") == 2000.0);
  CHECK(r.extra.at("counters").at("gbps").get<double>() > 0);
  CHECK(r.extra.at("check").at("rel_error").get<double>() < 1e-6);
}

TEST_CASE("a wrong implementation fails the check and is not timed") {
  const auto r = execute_case(quick("wrong"));
  CHECK(r.status == perfgate::ResultStatus::error);
  CHECK(r.message.find("relative error") != std::string::npos);
  CHECK(r.samples.empty());
}

TEST_CASE("an implementation that writes nothing fails on the poisoned output") {
  const auto r = execute_case(quick("lazy"));
  CHECK(r.status == perfgate::ResultStatus::error);
  CHECK(r.message.find("nan") != std::string::npos);
}

TEST_CASE("an unknown variant is skipped with a message") {
  const auto r = execute_case(quick("missing"));
  CHECK(r.status == perfgate::ResultStatus::skipped);
}

// The harness's side of backends that may be absent: an implementation declining a case with a
// reason (skipped, not failed), an implementation's notes reaching the result, and planning
// that refuses a named backend this machine cannot run. Uses its own Registry, no device.
#include <catch2/catch.hpp>

#include "perfgate/microbench/execute.hpp"
#include "perfgate/microbench/plan.hpp"
#include "perfgate/microbench/registry.hpp"
#include "quick_case.hpp"

using namespace perfgate::microbench;
using perfgate::ResultStatus;

namespace {

struct OnesProblem : Problem {
  std::size_t n;
  OnesProblem(const CaseParams& p, Rng&) : n(std::size_t(p.integer("n"))) {}
  std::vector<double> reference() const override { return std::vector<double>(n, 1.0); }
};

// Writes ones; counts when sampling started and reports it as a note, with whether it was
// asked to time cold (only an instance that can flush a cache accepts).
class Ones final : public HostInstance {
 public:
  explicit Ones(std::size_t n, bool can_flush = false) : HostInstance(n), can_flush_(can_flush) {}
  void run() override { std::fill(out_.begin(), out_.end(), 1.0f); }
  void sampling_started() override { ++started_; }
  bool use_cold_cache() override { return cold_ = can_flush_; }
  nlohmann::json notes() const override {
    return {{"probe_note", {{"sampling_started", started_}, {"cold", cold_}}}};
  }

 private:
  int started_ = 0;
  bool can_flush_, cold_ = false;
};

void define(Registry& r, bool& gpu_usable) {
  r.family("ones")
      .int_axis("n", {8})
      .problem(problem_of<OnesProblem>())
      .implementation("cpu", "plain",
                      [](Problem& p, const CaseParams&) -> std::unique_ptr<Instance> {
                        return std::make_unique<Ones>(static_cast<OnesProblem&>(p).n);
                      })
      .implementation("gpu", "narrow",
                      [](Problem& p, const CaseParams&) -> std::unique_ptr<Instance> {
                        if (static_cast<OnesProblem&>(p).n > 4)
                          throw CaseUnsupported("gpu/narrow: n > 4 is not supported");
                        return std::make_unique<Ones>(static_cast<OnesProblem&>(p).n, true);
                      });
  r.backend_probe(
      "gpu", [&gpu_usable] { return gpu_usable; }, "no GPU device");
  r.cold_cache_backend("gpu");
}

CaseRequest request(const std::string& backend, const std::string& variant) {
  return perfgate::microbench::testing::quick_case("ones", backend, variant, {{"n", "8"}});
}

perfgate::SuiteConfig suite() {
  perfgate::SuiteConfig s;
  s.name = "t";
  s.backends = {"cpu", "gpu"};
  s.families.push_back({"ones", {}, {}});
  return s;
}

}  // namespace

TEST_CASE("an implementation declining a case is reported as skipped with its reason") {
  Registry r;
  bool usable = true;
  define(r, usable);
  const auto result = execute_case(request("gpu", "narrow"), r);
  CHECK(result.status == ResultStatus::skipped);
  CHECK(result.message == "gpu/narrow: n > 4 is not supported");
  CHECK(result.samples.empty());
}

TEST_CASE("an implementation's notes are added to the result's extra after sampling") {
  Registry r;
  bool usable = true;
  define(r, usable);
  const auto result = execute_case(request("cpu", "plain"), r);
  REQUIRE(result.status == ResultStatus::ok);
  CHECK(!result.samples.empty());
  CHECK(result.extra.at("probe_note").at("sampling_started") == 1);
  CHECK(result.extra.contains("sampling"));  // the harness's own fields stay
}

TEST_CASE("planning refuses a named backend whose probe fails, and notes it for auto") {
  Registry r;
  bool usable = false;
  define(r, usable);
  CHECK_THROWS_AS(plan_suite(suite(), PlanOptions{{"gpu"}, std::nullopt, {}}, r),
                  BackendUnavailable);
  CHECK_THROWS_AS(plan_suite(suite(), PlanOptions{{"gpu"}, std::nullopt, {}}, r),
                  perfgate::NoDeviceError);  // exit 4
  CHECK_THROWS_WITH(plan_suite(suite(), PlanOptions{{"cpu", "gpu"}, std::nullopt, {}}, r),
                    "backend gpu: no GPU device on this machine");
  CHECK(available_backends(r) == std::vector<std::string>{"cpu"});
  CHECK(unavailable_backend_notes({"cpu", "gpu"}, r) ==
        std::vector<std::string>{"no GPU device: the suite's gpu cases are not run (using cpu)"});
  CHECK(unavailable_backend_notes({"gpu"}, r) ==
        std::vector<std::string>{
            "no GPU device: the suite's gpu cases are not run (nothing else to run)"});
  CHECK(plan_suite(suite(), PlanOptions{{"cpu"}, std::nullopt, {}}, r).size() == 1);

  usable = true;
  const auto cases = plan_suite(suite(), PlanOptions{{"gpu"}, std::nullopt, {}}, r);
  REQUIRE(cases.size() == 1);
  CHECK(cases[0].backend == "gpu");
  CHECK(available_backends(r) == std::vector<std::string>{"cpu", "gpu"});
  CHECK(unavailable_backend_notes({"cpu", "gpu"}, r).empty());
}

TEST_CASE("planning refuses a backend that is not built in") {
  Registry r;
  bool usable = true;
  define(r, usable);
  CHECK_THROWS_WITH(plan_suite(suite(), PlanOptions{{"tpu"}, std::nullopt, {}}, r),
                    "backend tpu: not built into this perfgate");
  CHECK_THROWS_AS(plan_suite(suite(), PlanOptions{{"tpu"}, std::nullopt, {}}, r),
                  perfgate::ToolError);  // the build's doing, not the machine's: exit 2
  CHECK(unavailable_backend_notes({"cpu", "tpu"}, r) ==
        std::vector<std::string>{
            "backend tpu is not built in: the suite's tpu cases are not run (using cpu)"});
}

TEST_CASE("cold cases are planned for backends with a cold cache only, as their own series") {
  Registry r;
  bool usable = true;
  define(r, usable);
  auto s = suite();
  s.families[0].axes["n"] = {"4"};
  s.families[0].cache = {"hot", "cold"};
  std::vector<std::string> names;
  for (const auto& c : plan_suite(s, PlanOptions{{"cpu", "gpu"}, std::nullopt, {}}, r))
    names.push_back(c.key().name());
  // Hot keeps the series names of before; the cpu backend gets no cold case.
  CHECK(names == std::vector<std::string>{"ones/backend:cpu/impl:plain/n:4",
                                          "ones/backend:gpu/impl:narrow/n:4",
                                          "ones/backend:gpu/cache:cold/impl:narrow/n:4"});

  // --cache replaces the suite's modes.
  const auto cold = plan_suite(s, PlanOptions{{"cpu", "gpu"}, std::nullopt, {"cold"}}, r);
  REQUIRE(cold.size() == 1);
  CHECK(cold[0].params.at("cache") == "cold");
  CHECK(plan_suite(s, PlanOptions{{"cpu", "gpu"}, std::nullopt, {"hot"}}, r).size() == 2);
  CHECK(
      plan_suite(s, PlanOptions{{"cpu", "gpu"}, std::nullopt, {"cold", "hot", "cold"}}, r).size() ==
      3);  // each mode once
  // Asking cold of backends none of which has it is a usage error, not a run of nothing.
  CHECK_THROWS_AS(plan_suite(s, PlanOptions{{"cpu"}, std::nullopt, {"cold"}}, r),
                  perfgate::InputError);
  CHECK_THROWS_WITH(plan_suite(s, PlanOptions{{"cpu"}, std::nullopt, {"hot", "cold"}}, r),
                    "--cache cold: backend cpu has no cold mode (cuda has)");
  // A suite's cold selection is not such a request: the cpu backend runs its hot case.
  CHECK(plan_suite(s, PlanOptions{{"cpu"}, std::nullopt, {}}, r).size() == 1);
}

TEST_CASE("a cold case asks its instance to time cold, and is skipped where it cannot") {
  Registry r;
  bool usable = true;
  define(r, usable);
  using perfgate::microbench::testing::quick_case;
  const auto cold =
      execute_case(quick_case("ones", "gpu", "narrow", {{"n", "4"}, {"cache", "cold"}}), r);
  REQUIRE(cold.status == ResultStatus::ok);
  CHECK(cold.extra.at("probe_note").at("cold") == true);
  const auto hot = execute_case(quick_case("ones", "gpu", "narrow", {{"n", "4"}}), r);
  REQUIRE(hot.status == ResultStatus::ok);
  CHECK(hot.extra.at("probe_note").at("cold") == false);
  const auto refused =
      execute_case(quick_case("ones", "cpu", "plain", {{"n", "4"}, {"cache", "cold"}}), r);
  CHECK(refused.status == ResultStatus::skipped);
  CHECK(refused.message == "the cpu implementation 'plain' has no cold mode");
  CHECK(refused.samples.empty());
}

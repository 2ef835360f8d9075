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

// Writes ones; counts when sampling started and reports it as a note, with the timing mode it
// was given (a "device" instance takes cold and declines graph with a reason; a host one has
// no modes).
class Ones final : public HostInstance {
 public:
  explicit Ones(std::size_t n, bool device = false) : HostInstance(n), device_(device) {}
  void run() override { std::fill(out_.begin(), out_.end(), 1.0f); }
  void sampling_started() override { ++started_; }
  bool use_timing(const std::string& mode) override {
    if (!device_) return false;
    if (mode == "graph") throw CaseUnsupported("ones cannot be captured into a graph");
    timing_ = mode;
    return true;
  }
  nlohmann::json notes() const override {
    return {{"probe_note", {{"sampling_started", started_}, {"timing", timing_}}}};
  }

 private:
  int started_ = 0;
  bool device_;
  std::string timing_ = "hot";
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
  r.timing_mode("gpu", "cold");
  r.timing_mode("gpu", "graph");
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

TEST_CASE("timing modes are planned for the backends that have them, as their own series") {
  Registry r;
  bool usable = true;
  define(r, usable);
  auto s = suite();
  s.families[0].axes["n"] = {"4"};
  s.families[0].timing = {"hot", "cold", "graph"};
  std::vector<std::string> names;
  for (const auto& c : plan_suite(s, PlanOptions{{"cpu", "gpu"}, std::nullopt, {}}, r))
    names.push_back(c.key().name());
  // Hot keeps the series names of before; the cpu backend gets only hot.
  CHECK(names == std::vector<std::string>{"ones/backend:cpu/impl:plain/n:4",
                                          "ones/backend:gpu/impl:narrow/n:4",
                                          "ones/backend:gpu/impl:narrow/n:4/timing:cold",
                                          "ones/backend:gpu/impl:narrow/n:4/timing:graph"});

  // --timing replaces the suite's modes.
  const auto cold = plan_suite(s, PlanOptions{{"cpu", "gpu"}, std::nullopt, {"cold"}}, r);
  REQUIRE(cold.size() == 1);
  CHECK(cold[0].params.at("timing") == "cold");
  CHECK(plan_suite(s, PlanOptions{{"cpu", "gpu"}, std::nullopt, {"hot"}}, r).size() == 2);
  CHECK(
      plan_suite(s, PlanOptions{{"cpu", "gpu"}, std::nullopt, {"cold", "hot", "cold"}}, r).size() ==
      3);  // each mode once
  // Asking for a mode that no backend of the run has is a usage error, not a run of nothing.
  CHECK_THROWS_AS(plan_suite(s, PlanOptions{{"cpu"}, std::nullopt, {"cold"}}, r),
                  perfgate::InputError);
  CHECK_THROWS_WITH(plan_suite(s, PlanOptions{{"cpu"}, std::nullopt, {"hot", "graph"}}, r),
                    "--timing graph: backend cpu has no graph mode (gpu has)");
  CHECK_THROWS_WITH(plan_suite(s, PlanOptions{{"cpu", "gpu"}, std::nullopt, {"turbo"}}, r),
                    "--timing turbo: backends cpu, gpu have no turbo mode (no backend built in "
                    "has)");
  // A suite's cold and graph selection is not such a request: the cpu backend runs hot.
  CHECK(plan_suite(s, PlanOptions{{"cpu"}, std::nullopt, {}}, r).size() == 1);
}

TEST_CASE("a timing mode reaches the instance, and a case is skipped where it cannot") {
  Registry r;
  bool usable = true;
  define(r, usable);
  using perfgate::microbench::testing::quick_case;
  const auto cold =
      execute_case(quick_case("ones", "gpu", "narrow", {{"n", "4"}, {"timing", "cold"}}), r);
  REQUIRE(cold.status == ResultStatus::ok);
  CHECK(cold.extra.at("probe_note").at("timing") == "cold");
  const auto hot = execute_case(quick_case("ones", "gpu", "narrow", {{"n", "4"}}), r);
  REQUIRE(hot.status == ResultStatus::ok);
  CHECK(hot.extra.at("probe_note").at("timing") == "hot");
  // An implementation that cannot time that way at all, and one that says why not.
  const auto refused =
      execute_case(quick_case("ones", "cpu", "plain", {{"n", "4"}, {"timing", "cold"}}), r);
  CHECK(refused.status == ResultStatus::skipped);
  CHECK(refused.message == "the cpu implementation 'plain' has no cold timing");
  CHECK(refused.samples.empty());
  const auto declined =
      execute_case(quick_case("ones", "gpu", "narrow", {{"n", "4"}, {"timing", "graph"}}), r);
  CHECK(declined.status == ResultStatus::skipped);
  CHECK(declined.message == "ones cannot be captured into a graph");
}

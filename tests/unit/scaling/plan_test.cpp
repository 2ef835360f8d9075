#include <catch2/catch.hpp>

#include "perfgate/core/error.hpp"
#include "perfgate/scaling/plan.hpp"

using namespace perfgate;
using namespace perfgate::scaling;

namespace {
std::string error_of(const std::string& text) {
  try {
    parse_plan_text(text, "plan.toml");
  } catch (const InputError& e) {
    return e.what();
  }
  return "";
}
}  // namespace

TEST_CASE("a sweep plan reads workload, scales, mode and sizes") {
  const auto plans = parse_plan_text(R"(
[[sweep]]
name = "ar"
workload = "all_reduce"
mode = "strong"
nodes = [4, 1, 2]
ranks_per_node = 2
sizes = ["1M", 4096]
[sweep.env]
NCCL_ALGO = "Ring"
)",
                                     "plan.toml");
  REQUIRE(plans.size() == 1);
  const SweepPlan& p = plans[0];
  CHECK(p.name == "ar");
  CHECK(p.source == "plan.toml:2");
  CHECK(p.workload.kind == WorkloadKind::collective);
  CHECK(p.workload.collective == "all_reduce");
  CHECK(p.mode == ScalingMode::strong);
  REQUIRE(p.points.size() == 3);
  CHECK(p.points[0].nodes == 1);
  CHECK(p.points[2].ranks() == 8);
  CHECK(p.points[1].label() == "N2xR2");
  CHECK(p.workload.sizes == std::vector<long long>{1 << 20, 4096});
  CHECK(p.env.at("NCCL_ALGO") == "Ring");
}

TEST_CASE("the step proxy plan reads its model") {
  const auto plans = parse_plan_text(R"(
[[sweep]]
name = "sp"
workload = "step_proxy"
[sweep.model]
layers = 3
hidden = 96
heads = 3
bucket_bytes = "1M"
)",
                                     "p.toml");
  CHECK(plans[0].workload.kind == WorkloadKind::step_proxy);
  CHECK(plans[0].workload.backend == "cpu");
  CHECK(plans[0].workload.proxy.layers == 3);
  CHECK(plans[0].workload.proxy.bucket_bytes == (1 << 20));
}

TEST_CASE("plan errors name file, line and key") {
  CHECK(error_of("[[sweep]]\nname = \"x\"\nworkload = \"all_reduce\"\nnodes = [1, \"two\"]\n") ==
        "plan.toml:4: nodes: expected an array of integers");
  CHECK(error_of("[[sweep]]\nname = \"x\"\nworkload = \"teleport\"\n") ==
        "plan.toml:3: workload: unknown workload 'teleport'");
  CHECK(error_of("[[sweep]]\nname = \"x\"\nworkload = \"all_reduce\"\nmdoe = \"weak\"\n") ==
        "plan.toml:4: mdoe: unknown key");
  CHECK(error_of("[[sweep]]\nname = \"x\"\nworkload = \"all_reduce\"\nsizes = [\"1Q\"]\n")
            .find("plan.toml:4: sizes:") == 0);
  CHECK(error_of("[[sweep]]\nname = \"x\"\nworkload = \"all_reduce\"\nnodes = [1, 1]\n") ==
        "plan.toml:4: nodes: repeats a value");
  CHECK(error_of("[[sweep]\n").find("plan.toml:1:") == 0);
  CHECK(error_of("title = 1\n") == "plan.toml: sweep: no [[sweep]] tables");
}

TEST_CASE("find_plan names the plans it has") {
  const auto plans = parse_plan_text("[[sweep]]\nname = \"a\"\nworkload = \"overlap\"\n", "p.toml");
  CHECK(find_plan(plans, "a").workload.kind == WorkloadKind::overlap);
  CHECK_THROWS_WITH(find_plan(plans, "b"), "sweep 'b' is not in the plan file (it has: a)");
}

TEST_CASE("the shipped suites/sweeps.toml parses") {
  const auto plans = parse_plan_file(std::string(PERFGATE_SOURCE_DIR) + "/suites/sweeps.toml");
  CHECK(plans.size() >= 2);
  CHECK(find_plan(plans, "all_reduce_weak").points.size() == 3);
}

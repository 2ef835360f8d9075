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

TEST_CASE("every collective of perfgate-collectives is a workload, hypercube on powers of 2") {
  for (const std::string c : {"gather", "scatter", "hypercube", "sendrecv"}) {
    INFO(c);
    const auto plans = parse_plan_text(
        "[[sweep]]\nname = \"x\"\nworkload = \"" + c + "\"\nnodes = [1, 2, 4]\n", "p");
    CHECK(plans[0].workload.kind == WorkloadKind::collective);
    CHECK(plans[0].workload.collective == c);
  }
  CHECK(error_of("[[sweep]]\nname = \"x\"\nworkload = \"hypercube\"\nnodes = [1, 2]\n"
                 "ranks_per_node = 3\n") ==
        "plan.toml:5: ranks_per_node: N1xR3: hypercube needs a power-of-two rank count, not 3");
  CHECK(error_of("[[sweep]]\nname = \"x\"\nworkload = \"hypercube\"\nnodes = [1, 2, 3]\n") ==
        "plan.toml:4: nodes: N3xR1: hypercube needs a power-of-two rank count, not 3");
  // Names as perfgate-collectives prints them, not its aliases: the results' family is built
  // from the name.
  CHECK(error_of("[[sweep]]\nname = \"x\"\nworkload = \"allreduce\"\n") ==
        "plan.toml:3: workload: unknown workload 'allreduce'");
}

TEST_CASE("plan numbers past what the sweep can hold are refused, not wrapped") {
  const std::string head = "[[sweep]]\nname = \"x\"\nworkload = \"all_reduce\"\n";
  // Once a signed overflow in the size parser; now the shared byte-size parser's limit.
  CHECK_THAT(error_of(head + "sizes = [\"8589934592G\"]\n"),
             Catch::StartsWith("plan.toml:4: sizes: '8589934592G' is more than the largest"));
  CHECK(error_of(head + "sizes = [\"0K\"]\n") == "plan.toml:4: sizes: size '0K' must be positive");
  // Counts are ints: 4294967297 once became 1 iteration.
  CHECK(error_of(head + "iters = 4294967297\n") ==
        "plan.toml:4: iters: must be at most 2147483647");
  CHECK(error_of(head + "nodes = [1, 4294967296]\n") ==
        "plan.toml:4: nodes: 4294967296 is above 2147483647");
  CHECK(error_of(head + "nodes = [1, 65536]\nranks_per_node = 65536\n") ==
        "plan.toml:5: ranks_per_node: 65536 nodes of 65536 ranks is more than 2147483647 ranks");
  CHECK(error_of("[[sweep]]\nname = \"p\"\nworkload = \"step_proxy\"\n[sweep.model]\n"
                 "bucket_bytes = \"9007199254740992K\"\n")
            .find("plan.toml:5: bucket_bytes: '9007199254740992K' is more than the largest size") ==
        0);
  CHECK(parse_plan_text(head + "nodes = [32768]\nranks_per_node = 65535\n", "p")[0]
            .points[0]
            .ranks() == 2147450880);
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

// The CUDA backend of the registry, host side: the clock notes a CUDA result carries (NVML
// absent or answering), the implementations each family registers, and the no-device path
// (every CUDA case skipped with the reason, the backend refused by name). On a machine with a
// GPU the same cases must pass their correctness check instead.
#include <catch2/catch.hpp>

#include <set>

#include "perfgate/cuda/clock_notes.hpp"
#include "perfgate/cuda/clock_record.hpp"
#include "perfgate/microbench/execute.hpp"
#include "perfgate/microbench/plan.hpp"
#include "perfgate/microbench/registry.hpp"
#include "quick_case.hpp"

using namespace perfgate::microbench;
using perfgate::ResultStatus;
namespace pc = perfgate::cuda;

TEST_CASE("without NVML every kept sample is unchecked and the notes say why") {
  pc::ClockRecord record;
  CHECK(record.add(std::nullopt));
  CHECK(record.add(std::nullopt));
  CHECK(record.kept() == 2);
  CHECK(record.unchecked() == 2);
  CHECK(!record.all_checked());
  const pc::NvmlProbe probe("0000:00:00.0", "libperfgate-no-such-nvml.so");
  REQUIRE(!probe.available());
  const auto notes = pc::clock_notes(record, probe.why());
  CHECK(notes.at("nvml") == false);
  CHECK(notes.at("nvml_missing").get<std::string>().find("could not be opened") !=
        std::string::npos);
  CHECK(notes.at("unchecked_samples") == 2);
  CHECK(notes.at("throttled_discarded") == 0);
  CHECK(!notes.contains("sm_clock_min_mhz"));  // no reading, no range
}

TEST_CASE("throttled samples are discarded and the clock range covers the kept ones") {
  using namespace pc::throttle_bits;
  pc::ClockRecord record;
  CHECK(record.add(pc::ClockSample{1980, 0, std::nullopt}));
  CHECK(!record.add(pc::ClockSample{1200, hw_thermal, std::nullopt}));
  CHECK(!record.add(pc::ClockSample{1100, hw_slowdown | sw_power_cap, std::nullopt}));
  CHECK(record.add(pc::ClockSample{1755, sw_power_cap, std::nullopt}));
  CHECK(record.add(pc::ClockSample{1890, gpu_idle, std::nullopt}));
  CHECK(record.all_checked());
  const auto notes = pc::clock_notes(record, "");
  CHECK(notes.at("nvml") == true);
  CHECK(!notes.contains("nvml_missing"));
  CHECK(notes.at("throttled_discarded") == 2);
  CHECK(notes.at("power_capped") == 1);
  CHECK(notes.at("sm_clock_min_mhz") == 1755);
  CHECK(notes.at("sm_clock_max_mhz") == 1980);
  record.reset();  // what sampling_started() does after warm-up
  CHECK(record.kept() == 0);
  CHECK(record.discarded_throttled() == 0);
}

TEST_CASE("a sample during which NVML's slowdown count rose is flagged, not discarded") {
  pc::ClockRecord record;
  pc::ClockSample after{1980, 0, 1000};
  record.before_sample(1000);
  CHECK(record.add(after));  // unchanged count
  record.before_sample(1000);
  after.slowdown_ns = 1500;
  CHECK(record.add(after));  // rose during the sample: kept and flagged
  record.before_sample(std::nullopt);
  CHECK(record.add(after));  // no count before the sample: nothing to compare
  after.slowdown_ns = 2000;
  CHECK(record.add(after));  // no before_sample() since the last add
  CHECK(record.kept() == 4);
  CHECK(record.slowed() == 1);
  CHECK(pc::clock_notes(record, "").at("slowdown_flagged") == 1);
}

TEST_CASE("every family has CUDA implementations, attention three of them") {
  const std::map<std::string, std::set<std::string>> want = {
      {"attention", {"cudnn", "unfused", "flash"}},
      {"attention_backward", {"cudnn"}},
      {"rope", {"fused", "unfused"}},
      {"adamw", {"fused", "unfused"}},
      {"cross_entropy", {"fused", "unfused"}},
      {"rmsnorm", {"fused", "unfused"}},
      {"gemm", {"fused", "unfused"}}};
  for (const auto& [name, variants] : want) {
    INFO(name);
    const Family* f = Registry::instance().find(name);
    REQUIRE(f);
    std::set<std::string> cuda;
    for (const auto& i : f->implementations())
      if (i.backend == "cuda") cuda.insert(i.variant);
    CHECK(cuda == variants);
  }
  CHECK(Registry::instance().backend_probes().count("cuda") == 1);
}

namespace {

CaseRequest cuda_case(const std::string& family, const std::string& impl, perfgate::Params params) {
  return perfgate::microbench::testing::quick_case(family, "cuda", impl, std::move(params));
}

perfgate::Params attention(const char* causal, const char* varlen) {
  return {{"b", "2"},  {"h", "4"},         {"hkv", "2"},       {"sq", "128"},    {"sk", "128"},
          {"d", "64"}, {"causal", causal}, {"varlen", varlen}, {"dtype", "bf16"}};
}

}  // namespace

TEST_CASE("the CUDA cases skip with the reason without a device and pass with one") {
  const bool gpu = available_backends().size() > 1;
  const std::vector<CaseRequest> cases = {
      cuda_case("rope", "fused", {{"tokens", "64"}, {"heads", "4"}, {"d", "64"}, {"seq", "32"}}),
      cuda_case("rope", "unfused", {{"tokens", "64"}, {"heads", "4"}, {"d", "64"}, {"seq", "32"}}),
      cuda_case("adamw", "fused", {{"tensors", "5"}, {"size", "1001"}}),
      cuda_case("adamw", "unfused", {{"tensors", "5"}, {"size", "1001"}}),
      cuda_case("cross_entropy", "fused", {{"rows", "9"}, {"vocab", "3001"}}),
      cuda_case("cross_entropy", "unfused", {{"rows", "9"}, {"vocab", "3001"}}),
      cuda_case("attention", "cudnn", attention("0", "0")),
      cuda_case("attention", "unfused", attention("1", "0")),
      cuda_case("attention", "unfused", attention("1", "1")),  // per sequence
      cuda_case("attention", "flash", attention("1", "0")),
      // Packed variable-length batches: cuDNN's ragged offsets, the flash kernel's packed form.
      cuda_case("attention", "cudnn", attention("0", "1")),
      cuda_case("attention", "cudnn", attention("1", "1")),
      cuda_case("attention", "flash", attention("0", "1")),
      cuda_case("attention", "flash", attention("1", "1"))};
  for (const auto& c : cases) {
    INFO(c.key().name());
    const auto r = execute_case(c);
    INFO(r.message);
    if (!gpu) {
      CHECK(r.status == ResultStatus::skipped);
      CHECK(r.message.rfind("no CUDA device", 0) == 0);
      continue;
    }
    CHECK(r.status == ResultStatus::ok);
    CHECK(r.extra.at("clocks").contains("nvml"));
  }
}

TEST_CASE("CUDA attention declines the cases it cannot do, naming why") {
  if (available_backends().size() == 1) {
    WARN("skipped: no CUDA device");
    return;
  }
  auto d96 = attention("0", "0");
  d96["d"] = "96";
  auto odd_length = attention("0", "0");  // a uniform batch of 100: no packed form to mask it
  odd_length["sq"] = odd_length["sk"] = "100";
  const std::vector<std::pair<CaseRequest, std::string>> declined = {
      {cuda_case("attention", "flash", d96), "head_dim 64 and 128"},
      {cuda_case("attention", "flash", odd_length), "multiples of 64"}};
  for (const auto& [c, why] : declined) {
    INFO(c.key().name());
    const auto r = execute_case(c);
    CHECK(r.status == ResultStatus::skipped);
    CHECK(r.message.find(why) != std::string::npos);
  }
}

TEST_CASE("cuDNN attention with a causal mask runs as the composite graph and passes its check") {
  if (available_backends().size() == 1) {
    WARN("skipped: no CUDA device");
    return;
  }
  const auto r = execute_case(cuda_case("attention", "cudnn", attention("1", "0")));
  INFO(r.message);
  REQUIRE(r.status == ResultStatus::ok);
  CHECK(r.extra.at("cudnn_path").get<std::string>().rfind("composite graph", 0) == 0);
}

TEST_CASE("naming the cuda backend without a device refuses to plan, with one line") {
  if (available_backends().size() > 1) return;  // a device: nothing to refuse
  perfgate::SuiteConfig s;
  s.name = "t";
  s.families.push_back({"rope", {}, {}});
  CHECK_THROWS_AS(plan_suite(s, PlanOptions{{"cuda"}, std::nullopt, {}}), BackendUnavailable);
  CHECK_THROWS_WITH(plan_suite(s, PlanOptions{{"cuda"}, std::nullopt, {}}),
                    "backend cuda: no CUDA device on this machine");
  CHECK(unavailable_backend_notes({"cpu", "cuda"}) ==
        std::vector<std::string>{"no CUDA device: the suite's cuda cases are not run (using cpu)"});
}

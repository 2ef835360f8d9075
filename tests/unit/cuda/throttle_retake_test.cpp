// The retake rule the timer and the registry share: throttled samples are discarded, counted
// and retaken; a GPU that stays throttled fails with the reasons. Host-only: samples are scripted.
#include <catch2/catch.hpp>

#include <cstdint>
#include <optional>
#include <vector>

#include "perfgate/core/error.hpp"
#include "perfgate/cuda/clock_record.hpp"

using namespace perfgate::cuda;
using namespace throttle_bits;

namespace {

// Hands out `readings` in order, sample i taking i + 1 seconds.
struct Script {
  std::vector<std::optional<ClockSample>> readings;
  int taken = 0, slowdown_reads = 0;
  std::optional<std::uint64_t> slowdown_now() {
    ++slowdown_reads;
    return 100;
  }
  TimedSample take() {
    const auto i = std::size_t(taken++);
    return {double(i + 1), readings.at(i)};
  }
};

std::vector<double> run(Script& script, ClockRecord& clocks, const RetakeRule& rule) {
  return take_unthrottled(
      clocks, rule, [&] { return script.slowdown_now(); }, [&] { return script.take(); });
}

}  // namespace

TEST_CASE("throttled samples are retaken until enough are kept") {
  Script script{{ClockSample{1980, 0, 100}, ClockSample{1200, hw_thermal, 150},
                 ClockSample{1900, sw_power_cap, 150}, ClockSample{1950, 0, 150}}};
  ClockRecord clocks;
  const auto kept = run(script, clocks, {.wanted = 3, .max_attempts = 9});
  CHECK(kept == std::vector<double>{1, 3, 4});  // the thermal sample's time is dropped
  CHECK(script.taken == 4);                     // none taken once enough were kept
  CHECK(clocks.kept() == 3);
  CHECK(clocks.discarded_throttled() == 1);
  CHECK(clocks.power_capped() == 1);
  // The count before a sample is the previous sample's reading: read from NVML only once, and
  // the kept sample after the discarded one (150 before, 150 after) is not flagged.
  CHECK(script.slowdown_reads == 1);
  CHECK(clocks.slowed() == 0);
}

TEST_CASE("re-reading the slowdown count reads it before every sample") {
  Script script{{ClockSample{1200, hw_slowdown, 100}, ClockSample{1980, 0, 150}}};
  ClockRecord clocks;
  const RetakeRule rule{.wanted = 1, .max_attempts = 4, .reread_slowdown = true};
  CHECK(run(script, clocks, rule) == std::vector<double>{2});
  CHECK(script.slowdown_reads == 2);
  CHECK(clocks.slowed() == 1);  // 100 read before the retake, 150 after it
}

TEST_CASE("without readings every sample is kept unchecked") {
  Script script{{std::nullopt, std::nullopt}};
  ClockRecord clocks;
  CHECK(run(script, clocks, {.wanted = 2, .max_attempts = 6}).size() == 2);
  CHECK(clocks.unchecked() == 2);
  CHECK(clocks.discarded_throttled() == 0);
}

TEST_CASE("a GPU that stays throttled fails, naming the reasons") {
  const ClockSample thermal{1200, hw_thermal | sw_power_cap, std::nullopt};
  SECTION("counted as samples kept of those wanted") {
    Script script{{ClockSample{1980, 0, std::nullopt}, thermal, thermal}};
    ClockRecord clocks;
    CHECK_THROWS_WITH(run(script, clocks, {.wanted = 2, .max_attempts = 3}),
                      "the GPU stayed throttled (sw_power_cap|hw_thermal): 1 of 2 samples kept "
                      "in 3 attempts, no trustworthy time");
    CHECK(clocks.discarded_throttled() == 2);
  }
  SECTION("counted as consecutive samples") {
    Script script{{thermal, thermal, thermal, thermal}};
    ClockRecord clocks;
    const RetakeRule rule{
        .wanted = 1, .max_attempts = 4, .reread_slowdown = true, .consecutive = true};
    CHECK_THROWS_AS(run(script, clocks, rule), perfgate::ToolError);
    script.taken = 0;
    CHECK_THROWS_WITH(run(script, clocks, rule),
                      "the GPU stayed throttled (sw_power_cap|hw_thermal) through 4 consecutive "
                      "samples: no trustworthy time");
    CHECK(script.taken == 4);
  }
}

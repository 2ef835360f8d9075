#include <catch2/catch.hpp>

#include "perfgate/cuda/gpu_timer.hpp"
#include "perfgate/cuda/nvml_probe.hpp"

using namespace perfgate::cuda;

TEST_CASE("a missing NVML library leaves the probe unavailable, with the reason") {
  NvmlProbe probe("0000:00:00.0", "libperfgate-no-such-nvml.so.1");
  CHECK_FALSE(probe.available());
  CHECK_THAT(probe.why(), Catch::Contains("libperfgate-no-such-nvml.so.1"));
  CHECK_FALSE(probe.sample().has_value());
}

TEST_CASE("a library without NVML's symbols is reported, not called") {
  NvmlProbe probe("0000:00:00.0", "libm.so.6");
  CHECK_FALSE(probe.available());
  CHECK_THAT(probe.why(), Catch::Contains("symbol"));
}

TEST_CASE("thermal and hardware slowdowns disqualify a sample, the power cap does not") {
  using namespace throttle_bits;
  CHECK(is_disqualifying_throttle(hw_slowdown));
  CHECK(is_disqualifying_throttle(sw_thermal | sw_power_cap));
  CHECK(is_disqualifying_throttle(hw_power_brake));
  CHECK_FALSE(is_disqualifying_throttle(sw_power_cap));
  CHECK_FALSE(is_disqualifying_throttle(gpu_idle | applications_clocks));
  CHECK(describe_throttle(0) == "none");
  CHECK(describe_throttle(sw_power_cap | hw_thermal) == "sw_power_cap|hw_thermal");
  // Newer drivers set bits this list does not name: shown, not dropped.
  CHECK(describe_throttle(display_clock | 0x400) == "display_clock|0x400");
  CHECK_FALSE(is_disqualifying_throttle(display_clock));
}

TEST_CASE("timing options are validated before any GPU work") {
  TimingOptions o;
  CHECK_NOTHROW(validate(o));
  o.samples = 0;
  CHECK_THROWS_WITH(validate(o), Catch::Contains("samples"));
  o = TimingOptions{};
  o.cold = true;
  o.graph = true;
  CHECK_THROWS_WITH(validate(o), Catch::Contains("cold and graph"));
  o = TimingOptions{};
  o.min_sample_seconds = 0;
  CHECK_THROWS_WITH(validate(o), Catch::Contains("min_sample_seconds"));
  o = TimingOptions{};
  o.rotations = 0;
  CHECK_THROWS_WITH(validate(o), Catch::Contains("rotations must be >= 1"));
  o.rotations = 8;  // copies to rotate through only make sense when L2 is flushed
  CHECK_THROWS_WITH(validate(o), Catch::Contains("rotations need cold mode"));
  o.cold = true;
  CHECK_NOTHROW(validate(o));
  o.min_warmup_seconds = -1;
  CHECK_THROWS_WITH(validate(o), Catch::Contains("min_warmup_seconds"));
}

TEST_CASE("timing summaries: median and coefficient of variation") {
  TimingResult r;
  r.seconds = {3.0, 1.0, 2.0, 4.0};
  CHECK(r.median() == Approx(2.5));
  CHECK(r.coefficient_of_variation() == Approx(0.5163977795));
  r.seconds = {2.0};
  CHECK(r.coefficient_of_variation() == 0.0);
}

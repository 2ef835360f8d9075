#pragma once
// The clock bookkeeping of one measurement: per sample, the NVML reading taken right after it
// decides whether the sample is kept (a disqualifying throttle discards it) and widens the SM
// clock range of the kept samples; take_unthrottled() retakes the discarded ones. Host-only, so
// the NVML-absent path and the retake rule are tested without a GPU.
#include <cstdint>
#include <functional>
#include <optional>
#include <vector>

#include "perfgate/cuda/nvml_probe.hpp"

namespace perfgate::cuda {

class ClockRecord {
 public:
  // The slowdown count just before a sample (NvmlProbe::slowdown_ns), for add() to compare.
  void before_sample(std::optional<std::uint64_t> slowdown_ns) { before_ = slowdown_ns; }
  // Returns whether the sample is kept. No reading (NVML absent or failing): kept, unchecked.
  // A kept sample during which the slowdown count rose is flagged (slowed()), not discarded:
  // how finely drivers update that count is not documented.
  bool add(const std::optional<ClockSample>& reading);
  void reset() { *this = ClockRecord(); }

  int kept() const { return kept_; }
  int discarded_throttled() const { return discarded_; }
  int unchecked() const { return unchecked_; }        // kept samples without a reading
  int power_capped() const { return power_capped_; }  // kept samples under the power cap
  int slowed() const { return slowed_; }  // kept samples with a thermal/reliability slowdown
  bool all_checked() const { return unchecked_ == 0; }  // every kept sample had a reading
  // SM clock range over the kept, checked samples; 0 when there were none.
  unsigned min_sm_clock_mhz() const { return min_mhz_; }
  unsigned max_sm_clock_mhz() const { return max_mhz_; }

 private:
  int kept_ = 0, discarded_ = 0, unchecked_ = 0, power_capped_ = 0, slowed_ = 0;
  std::optional<std::uint64_t> before_;
  unsigned min_mhz_ = 0, max_mhz_ = 0;
};

// One timed sample and the NVML reading taken right after it (nullopt without one).
struct TimedSample {
  double seconds = 0;
  std::optional<ClockSample> reading;
};

struct RetakeRule {
  int wanted = 1;        // samples to keep
  int max_attempts = 1;  // samples taken at most, discarded ones included
  // The slowdown count before a sample: read again before every sample, or read before the
  // first only and then taken from the previous sample's reading (nothing runs on the GPU
  // between the two).
  bool reread_slowdown = false;
  // How the failure counts: "through <max_attempts> consecutive samples" (for one wanted
  // sample) or "<kept> of <wanted> samples kept in <max_attempts> attempts".
  bool consecutive = false;
};

// Takes samples until `rule.wanted` are kept: each goes through `clocks` (before_sample() with
// the slowdown count, then add() with its reading), and one a disqualifying throttle discards is
// counted there and retaken. Returns the kept samples' seconds in order; throws ToolError naming
// the last disqualifying throttle reasons when `rule.max_attempts` samples left fewer: such a
// GPU gives no trustworthy time. `slowdown_now` reads the count (NvmlProbe::slowdown_ns).
std::vector<double> take_unthrottled(
    ClockRecord& clocks, const RetakeRule& rule,
    const std::function<std::optional<std::uint64_t>()>& slowdown_now,
    const std::function<TimedSample()>& take_sample);

}  // namespace perfgate::cuda

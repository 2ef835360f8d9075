#include "perfgate/cuda/clock_record.hpp"

#include <algorithm>
#include <string>

#include "perfgate/core/error.hpp"

namespace perfgate::cuda {

bool ClockRecord::add(const std::optional<ClockSample>& reading) {
  const std::optional<std::uint64_t> before = before_;
  before_.reset();  // one comparison per before_sample()
  if (!reading) {
    ++kept_;
    ++unchecked_;
    return true;
  }
  if (is_disqualifying_throttle(reading->reasons)) {
    ++discarded_;
    return false;
  }
  if (reading->reasons & throttle_bits::sw_power_cap) ++power_capped_;
  if (before && reading->slowdown_ns && *reading->slowdown_ns > *before) ++slowed_;
  const bool first = kept_ == unchecked_;  // no checked sample kept yet
  min_mhz_ = first ? reading->sm_clock_mhz : std::min(min_mhz_, reading->sm_clock_mhz);
  max_mhz_ = first ? reading->sm_clock_mhz : std::max(max_mhz_, reading->sm_clock_mhz);
  ++kept_;
  return true;
}

std::vector<double> take_unthrottled(
    ClockRecord& clocks, const RetakeRule& rule,
    const std::function<std::optional<std::uint64_t>()>& slowdown_now,
    const std::function<TimedSample()>& take_sample) {
  std::vector<double> kept;
  std::uint64_t last_disqualifying = 0;
  std::optional<std::uint64_t> slowdown_before = slowdown_now();
  for (int attempt = 0; attempt < rule.max_attempts && int(kept.size()) < rule.wanted; ++attempt) {
    if (attempt > 0 && rule.reread_slowdown) slowdown_before = slowdown_now();
    clocks.before_sample(slowdown_before);
    const TimedSample sample = take_sample();
    slowdown_before = sample.reading ? sample.reading->slowdown_ns : std::nullopt;
    if (clocks.add(sample.reading))
      kept.push_back(sample.seconds);
    else
      last_disqualifying = sample.reading->reasons;
  }
  if (int(kept.size()) < rule.wanted) {
    const std::string stayed = "the GPU stayed throttled (" + describe_throttle(last_disqualifying);
    if (rule.consecutive)
      throw ToolError(stayed + ") through " + std::to_string(rule.max_attempts) +
                      " consecutive samples: no trustworthy time");
    throw ToolError(stayed + "): " + std::to_string(kept.size()) + " of " +
                    std::to_string(rule.wanted) + " samples kept in " +
                    std::to_string(rule.max_attempts) + " attempts, no trustworthy time");
  }
  return kept;
}

}  // namespace perfgate::cuda

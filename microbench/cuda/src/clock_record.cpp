#include "perfgate/cuda/clock_record.hpp"

#include <algorithm>

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

}  // namespace perfgate::cuda

#include "perfgate/cuda/clock_record.hpp"

#include <algorithm>

namespace perfgate::cuda {

bool ClockRecord::add(const std::optional<ClockSample>& reading) {
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
  const bool first = kept_ == unchecked_;  // no checked sample kept yet
  min_mhz_ = first ? reading->sm_clock_mhz : std::min(min_mhz_, reading->sm_clock_mhz);
  max_mhz_ = first ? reading->sm_clock_mhz : std::max(max_mhz_, reading->sm_clock_mhz);
  ++kept_;
  return true;
}

}  // namespace perfgate::cuda

#include "perfgate/cuda/clock_notes.hpp"

namespace perfgate::cuda {

nlohmann::json clock_notes(const ClockRecord& record, const std::string& nvml_missing) {
  nlohmann::json j = {{"nvml", nvml_missing.empty()},
                      {"throttled_discarded", record.discarded_throttled()},
                      {"power_capped", record.power_capped()},
                      {"slowdown_flagged", record.slowed()},
                      {"unchecked_samples", record.unchecked()}};
  if (!nvml_missing.empty()) j["nvml_missing"] = nvml_missing;
  // A range only when some kept sample had a reading: 0 MHz would read as a measurement.
  if (record.kept() > record.unchecked()) {
    j["sm_clock_min_mhz"] = record.min_sm_clock_mhz();
    j["sm_clock_max_mhz"] = record.max_sm_clock_mhz();
  }
  return j;
}

}  // namespace perfgate::cuda

#pragma once
// The `clocks` object a CUDA result carries in its `extra` (built by perfgate_mb_cuda): whether
// NVML answered, the SM clock range over the kept samples, and the samples discarded because
// the GPU was throttled, so a reviewer sees in the document what the timer saw.
#include <string>

#include <nlohmann/json.hpp>

#include "perfgate/cuda/clock_record.hpp"

namespace perfgate::cuda {

// `nvml_missing`: empty when NVML is available, else why not (NvmlProbe::why()).
nlohmann::json clock_notes(const ClockRecord& record, const std::string& nvml_missing);

}  // namespace perfgate::cuda

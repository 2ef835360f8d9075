#include "perfgate/cuda/nvml_probe.hpp"

#include <dlfcn.h>

#include <cinttypes>
#include <cstdio>
#include <utility>
#include <vector>

namespace perfgate::cuda {

bool is_disqualifying_throttle(std::uint64_t reasons) {
  using namespace throttle_bits;
  return (reasons & (hw_slowdown | sw_thermal | hw_thermal | hw_power_brake)) != 0;
}

std::string describe_throttle(std::uint64_t reasons) {
  using namespace throttle_bits;
  static const std::vector<std::pair<std::uint64_t, const char*>> names = {
      {gpu_idle, "gpu_idle"},          {applications_clocks, "applications_clocks"},
      {sw_power_cap, "sw_power_cap"},  {hw_slowdown, "hw_slowdown"},
      {sync_boost, "sync_boost"},      {sw_thermal, "sw_thermal"},
      {hw_thermal, "hw_thermal"},      {hw_power_brake, "hw_power_brake"},
      {display_clock, "display_clock"}};
  std::string text;
  auto append = [&text](const std::string& name) {
    if (!text.empty()) text += '|';
    text += name;
  };
  std::uint64_t known = 0;
  for (const auto& [bit, name] : names) {
    known |= bit;
    if ((reasons & bit) != 0) append(name);
  }
  if ((reasons & ~known) != 0) {
    char hex[24];
    std::snprintf(hex, sizeof hex, "0x%" PRIx64, reasons & ~known);
    append(hex);
  }
  return text.empty() ? "none" : text;
}

namespace {
constexpr int nvml_clock_sm = 1;  // NVML_CLOCK_SM
// nvmlPerfPolicyType_t values whose violation time marks a clock forced down.
constexpr int nvml_perf_policy_thermal = 1, nvml_perf_policy_reliability = 5;
// nvmlViolationTime_t: referenceTime (CPU timestamp, us), violationTime (ns).
struct ViolationTime {
  unsigned long long reference_time = 0, violation_time = 0;
};
template <class F>
F bind(void* library, const char* name) {
  return reinterpret_cast<F>(dlsym(library, name));
}
}  // namespace

NvmlProbe::NvmlProbe(const std::string& pci_bus_id, const char* library) {
  library_ = dlopen(library, RTLD_NOW | RTLD_LOCAL);
  if (library_ == nullptr) {
    why_ = std::string("NVML not loaded: ") + library + " could not be opened";
    return;
  }
  auto init = bind<int (*)()>(library_, "nvmlInit_v2");
  auto by_bus = bind<int (*)(const char*, void**)>(library_, "nvmlDeviceGetHandleByPciBusId_v2");
  clock_info_ = bind<int (*)(void*, int, unsigned*)>(library_, "nvmlDeviceGetClockInfo");
  reasons_ =
      bind<int (*)(void*, unsigned long long*)>(library_, "nvmlDeviceGetCurrentClocksEventReasons");
  if (reasons_ == nullptr)
    reasons_ = bind<int (*)(void*, unsigned long long*)>(
        library_, "nvmlDeviceGetCurrentClocksThrottleReasons");
  shutdown_ = bind<int (*)()>(library_, "nvmlShutdown");
  violation_ = bind<int (*)(void*, int, void*)>(library_, "nvmlDeviceGetViolationStatus");
  if (!init || !by_bus || !clock_info_ || !reasons_ || !shutdown_) {
    why_ = "NVML loaded but a needed symbol is missing";
    return;
  }
  if (init() != 0) {
    why_ = "nvmlInit_v2 failed";
    shutdown_ = nullptr;
    return;
  }
  void* device = nullptr;
  if (by_bus(pci_bus_id.c_str(), &device) != 0 || device == nullptr) {
    why_ = "NVML has no device with PCI bus id " + pci_bus_id;
    return;
  }
  device_ = device;
}

NvmlProbe::~NvmlProbe() {
  if (shutdown_ != nullptr) shutdown_();
  if (library_ != nullptr) dlclose(library_);
}

std::optional<ClockSample> NvmlProbe::sample() const {
  if (!available()) return std::nullopt;
  ClockSample s;
  unsigned long long reasons = 0;
  if (clock_info_(device_, nvml_clock_sm, &s.sm_clock_mhz) != 0) return std::nullopt;
  if (reasons_(device_, &reasons) != 0) return std::nullopt;
  s.reasons = reasons;
  s.slowdown_ns = slowdown_ns();
  return s;
}

std::optional<std::uint64_t> NvmlProbe::slowdown_ns() const {
  if (!available() || violation_ == nullptr) return std::nullopt;
  std::uint64_t total = 0;
  for (int policy : {nvml_perf_policy_thermal, nvml_perf_policy_reliability}) {
    ViolationTime t;
    if (violation_(device_, policy, &t) != 0) return std::nullopt;
    total += t.violation_time;
  }
  return total;
}

}  // namespace perfgate::cuda

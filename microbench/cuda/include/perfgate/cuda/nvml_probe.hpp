#pragma once
// SM clock and throttle reasons through NVML, loaded at run time with dlopen: build machines
// have no NVML, and a GPU machine without it still measures (samples are then unchecked).
#include <cstdint>
#include <optional>
#include <string>

namespace perfgate::cuda {

// NVML's clock-event (throttle) reason bits (nvml.h, stable since NVML 7).
namespace throttle_bits {
inline constexpr std::uint64_t gpu_idle = 0x1;
inline constexpr std::uint64_t applications_clocks = 0x2;
inline constexpr std::uint64_t sw_power_cap = 0x4;
inline constexpr std::uint64_t hw_slowdown = 0x8;
inline constexpr std::uint64_t sync_boost = 0x10;
inline constexpr std::uint64_t sw_thermal = 0x20;
inline constexpr std::uint64_t hw_thermal = 0x40;
inline constexpr std::uint64_t hw_power_brake = 0x80;
inline constexpr std::uint64_t display_clock = 0x100;
}  // namespace throttle_bits

// A sample taken while one of these was active is discarded: the clock was forced down by
// heat or a hardware signal. A power cap is the normal state of a busy GPU and only counted.
bool is_disqualifying_throttle(std::uint64_t reasons);
// "sw_power_cap|hw_thermal", "none"; bits this list does not know are shown in hex.
std::string describe_throttle(std::uint64_t reasons);

struct ClockSample {
  unsigned sm_clock_mhz = 0;
  std::uint64_t reasons = 0;
  // NVML's running count of nanoseconds that thermal or reliability limits held the clocks
  // below their target (nvmlDeviceGetViolationStatus); absent where the driver has none. The
  // reasons above are a snapshot after a sample; this count also sees a slowdown that came
  // and went during it.
  std::optional<std::uint64_t> slowdown_ns;
};

class NvmlProbe {
 public:
  // Loads `library` (default libnvidia-ml.so.1) and binds the GPU with this PCI bus id
  // ("0000:3B:00.0", from cudaDeviceGetPCIBusId). Never throws: when anything is missing the
  // probe is unavailable and why() says what.
  explicit NvmlProbe(const std::string& pci_bus_id, const char* library = "libnvidia-ml.so.1");
  ~NvmlProbe();
  NvmlProbe(const NvmlProbe&) = delete;
  NvmlProbe& operator=(const NvmlProbe&) = delete;

  bool available() const { return device_ != nullptr; }
  const std::string& why() const { return why_; }
  std::optional<ClockSample> sample() const;
  // The thermal + reliability violation count alone (nullopt without it).
  std::optional<std::uint64_t> slowdown_ns() const;

 private:
  void* library_ = nullptr;
  void* device_ = nullptr;
  std::string why_;
  int (*clock_info_)(void*, int, unsigned*) = nullptr;
  int (*reasons_)(void*, unsigned long long*) = nullptr;
  int (*shutdown_)() = nullptr;
  int (*violation_)(void*, int, void*) = nullptr;  // optional; the third is nvmlViolationTime_t*
};

}  // namespace perfgate::cuda

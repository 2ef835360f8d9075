// The cpu backend's ceiling for `perfgate run` (ceilings.hpp): one thread's memcpy of 128 MiB,
// bytes read + written, the best of 3 after a copy that faults every page in. One thread,
// because the CPU families run on one. No GEMM ceiling: the CPU GEMM is this project's own
// kernel, so a fraction of it would say nothing about the machine.
#include <algorithm>
#include <chrono>
#include <cstring>
#include <limits>
#include <vector>

#include "perfgate/microbench/registry.hpp"

namespace perfgate::microbench {
namespace {

Ceilings measure() {
  constexpr std::size_t kBytes = std::size_t(128) << 20;  // beyond one core's share of an L3
  constexpr int kRepeats = 3;
  std::vector<unsigned char> src(kBytes, 0x5a), dst(kBytes);
  std::memcpy(dst.data(), src.data(), kBytes);
  double best = std::numeric_limits<double>::infinity();
  for (int i = 0; i < kRepeats; ++i) {
    src[std::size_t(i)] = static_cast<unsigned char>(i);  // each copy moves different bytes
    const auto t0 = std::chrono::steady_clock::now();
    std::memcpy(dst.data(), src.data(), kBytes);
    asm volatile("" : : "r"(dst.data()) : "memory");  // the copy must happen, here
    best = std::min(best,
                    std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count());
  }
  Ceilings c;
  c.copy_bytes_per_second = 2.0 * double(kBytes) / best;
  c.how["copy"] = {{"method", "memcpy, one thread"},
                   {"bytes", kBytes},
                   {"best_of", kRepeats},
                   {"seconds", best}};
  return c;
}

const detail::Registrar ceilings{[] { Registry::instance().backend_ceilings("cpu", measure); }};

}  // namespace
}  // namespace perfgate::microbench

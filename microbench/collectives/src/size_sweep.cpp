#include "perfgate/collectives/size_sweep.hpp"

#include <algorithm>

#include <fmt/format.h>

#include "perfgate/core/error.hpp"

namespace perfgate::collectives {

std::string SizeSteps::header_text() const {
  return by_factor() ? fmt::format("{}(factor)", factor) : fmt::format("{}(bytes)", bytes);
}

std::vector<std::size_t> size_sweep(std::size_t min_bytes, std::size_t max_bytes,
                                    const SizeSteps& steps) {
  if (min_bytes == 0) throw InputError("--minbytes: must be at least 1");
  if (min_bytes > max_bytes) {
    throw InputError(
        fmt::format("--minbytes {} is larger than --maxbytes {}", min_bytes, max_bytes));
  }
  if (steps.factor == 0) throw InputError("--stepfactor: must be at least 1");
  if (!steps.by_factor() && steps.bytes == 0) throw InputError("--stepbytes: must be at least 1");
  if (!steps.by_factor() && (max_bytes - min_bytes) / steps.bytes >= max_sweep_sizes) {
    throw InputError(fmt::format(
        "--stepbytes: {} B from --minbytes {} to --maxbytes {} makes more than {} sizes",
        steps.bytes, min_bytes, max_bytes, max_sweep_sizes));
  }
  std::vector<std::size_t> sizes;
  for (std::size_t s = min_bytes;;) {
    sizes.push_back(s);
    // Each test keeps the next size within max without overflowing.
    if (steps.by_factor()) {
      if (s > max_bytes / steps.factor) break;
      s *= steps.factor;
    } else {
      if (s > max_bytes - steps.bytes) break;
      s += steps.bytes;
    }
  }
  return sizes;
}

int iterations_within(int iters, std::optional<std::size_t> total_bytes, std::size_t bytes) {
  if (!total_bytes || bytes == 0) return iters;
  const std::size_t fit = *total_bytes / bytes;
  return static_cast<int>(std::clamp<std::size_t>(fit, 1, static_cast<std::size_t>(iters)));
}

}  // namespace perfgate::collectives

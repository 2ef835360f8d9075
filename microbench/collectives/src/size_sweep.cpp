#include "perfgate/collectives/size_sweep.hpp"

#include <fmt/format.h>

#include "perfgate/core/error.hpp"

namespace perfgate::collectives {

std::vector<std::size_t> size_sweep(std::size_t min_bytes, std::size_t max_bytes,
                                    std::size_t factor) {
  if (min_bytes == 0) throw InputError("--minbytes: must be at least 1");
  if (min_bytes > max_bytes) {
    throw InputError(
        fmt::format("--minbytes {} is larger than --maxbytes {}", min_bytes, max_bytes));
  }
  if (factor < 2) throw InputError(fmt::format("--stepfactor: {} is below 2", factor));
  std::vector<std::size_t> sizes;
  for (std::size_t s = min_bytes; s <= max_bytes; s *= factor) {
    sizes.push_back(s);
    if (s > max_bytes / factor) break;
  }
  return sizes;
}

}  // namespace perfgate::collectives

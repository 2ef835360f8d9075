#pragma once
// Message sizes swept as nccl-tests sweeps them: by a factor (-f) or by a fixed increment (-i).
// Sizes are parsed by perfgate/core/byte_size.hpp.
#include <cstddef>
#include <optional>
#include <string>
#include <vector>

namespace perfgate::collectives {

// How one size leads to the next: times `factor` when it is 2 or more, else plus `bytes`
// (nccl-tests: a step factor of 1 means fixed increments).
struct SizeSteps {
  std::size_t factor = 2;
  std::size_t bytes = std::size_t{1} << 20;

  bool by_factor() const { return factor >= 2; }
  // The table header's "step: 2(factor)" or "step: 1048576(bytes)".
  std::string header_text() const;
};

// At most this many sizes: a fixed increment far below the range (-b 8 -e 8G -i 8) is a
// mistake that would otherwise run for days.
inline constexpr std::size_t max_sweep_sizes = 10000;

// min, then each next size up to max (inclusive). Throws InputError naming the option when
// min is 0, min > max, the factor is 0, the increment is 0, or the sweep has more than
// max_sweep_sizes sizes.
std::vector<std::size_t> size_sweep(std::size_t min_bytes, std::size_t max_bytes,
                                    const SizeSteps& steps);

// The timed iterations of a sweep size under nccl-tests' byte budget (-s, --tbytes): as many of
// `iters` as `total_bytes` holds of `bytes`, at least one; `iters` without a budget.
int iterations_within(int iters, std::optional<std::size_t> total_bytes, std::size_t bytes);

}  // namespace perfgate::collectives

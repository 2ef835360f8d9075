#pragma once
// Message sizes swept by a factor, as nccl-tests sweeps them (sizes are parsed by
// perfgate/core/byte_size.hpp).
#include <cstddef>
#include <vector>

namespace perfgate::collectives {

// min, min*f, min*f^2, ... up to max (inclusive); throws InputError when min > max or factor < 2.
std::vector<std::size_t> size_sweep(std::size_t min_bytes, std::size_t max_bytes,
                                    std::size_t factor);

}  // namespace perfgate::collectives

#pragma once
// Sizes as nccl-tests takes them: "8", "64K", "1M", "2G" (powers of 1024), swept by a factor.
#include <cstddef>
#include <string_view>
#include <vector>

namespace perfgate::collectives {

// Throws InputError naming `what` (the option) and the text.
std::size_t parse_size(std::string_view text, std::string_view what);
// min, min*f, min*f^2, ... up to max (inclusive); throws InputError when min > max or factor < 2.
std::vector<std::size_t> size_sweep(std::size_t min_bytes, std::size_t max_bytes,
                                    std::size_t factor);

}  // namespace perfgate::collectives

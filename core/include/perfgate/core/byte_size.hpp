#pragma once
// Byte counts as nccl-tests' options and perfgate's sweep plans write them: "8", "64K", "1M",
// "2G" (powers of 1024). One parser for the collectives program's options and the plan files.
#include <cstdint>
#include <string_view>

namespace perfgate {

// The largest count accepted: what a signed 64-bit byte count holds (8 EiB − 1).
inline constexpr std::uint64_t kLargestByteSize = 0x7fff'ffff'ffff'ffffULL;

// Digits with an optional K, M or G (either case); no sign, no spaces. Throws InputError naming
// `what` (the option or key) and the text: not a count, an unknown suffix, or more than
// kLargestByteSize bytes.
std::uint64_t parse_byte_size(std::string_view text, std::string_view what);

}  // namespace perfgate

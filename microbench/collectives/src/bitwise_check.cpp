#include "perfgate/collectives/bitwise_check.hpp"

#include <bit>
#include <cstring>

#include <fmt/format.h>

namespace perfgate::collectives {
namespace {

// Elements compared at a time with memcmp before looking for the differing ones: outputs of a
// gigabyte mostly agree, and a byte loop over all of them would take seconds a repeat.
constexpr std::size_t kBlockBytes = 1 << 16;

void add_element_differences(const std::byte* reference, const std::byte* now,
                             std::size_t element_bytes, std::size_t element, int repeat,
                             BitwiseDifference& diff) {
  int bits = 0, lowest = -1;
  for (std::size_t b = 0; b < element_bytes; ++b) {
    const auto x = static_cast<unsigned>(reference[b] ^ now[b]);
    if (x == 0) continue;
    bits += std::popcount(x);
    if (lowest < 0) lowest = static_cast<int>(b * 8) + std::countr_zero(x);
  }
  if (bits == 0) return;
  ++diff.elements;
  diff.bits += bits;
  if (diff.first_repeat >= 0) return;
  diff.first_repeat = repeat;
  diff.first_element = static_cast<long long>(element);
  diff.first_bit = lowest;
}

}  // namespace

void add_differences(std::span<const std::byte> reference, std::span<const std::byte> now,
                     std::size_t element_bytes, std::size_t first_element, int repeat,
                     BitwiseDifference& diff) {
  const std::size_t block = kBlockBytes / element_bytes * element_bytes;
  for (std::size_t at = 0; at < now.size(); at += block) {
    const std::size_t n = std::min(block, now.size() - at);
    if (std::memcmp(reference.data() + at, now.data() + at, n) == 0) continue;
    for (std::size_t e = at; e < at + n; e += element_bytes)
      add_element_differences(reference.data() + e, now.data() + e, element_bytes,
                              first_element + e / element_bytes, repeat, diff);
  }
}

BitwiseDifference combine_ranks(const std::vector<BitwiseDifference>& ranks) {
  BitwiseDifference all;
  for (std::size_t r = 0; r < ranks.size(); ++r) {
    const BitwiseDifference& d = ranks[r];
    all.elements += d.elements;
    all.bits += d.bits;
    if (d.first_repeat < 0) continue;
    if (all.first_repeat >= 0 && all.first_repeat <= d.first_repeat) continue;
    all.first_repeat = d.first_repeat;
    all.first_rank = static_cast<long long>(r);
    all.first_element = d.first_element;
    all.first_bit = d.first_bit;
  }
  return all;
}

void add_later_run(BitwiseDifference& into, const BitwiseDifference& later) {
  const bool had_first = into.first_repeat >= 0;
  into.elements += later.elements;
  into.bits += later.bits;
  if (had_first) return;
  into.first_repeat = later.first_repeat;
  into.first_rank = later.first_rank;
  into.first_element = later.first_element;
  into.first_bit = later.first_bit;
}

std::vector<double> to_numbers(const BitwiseDifference& d) {
  return {double(d.elements),   double(d.bits),          double(d.first_repeat),
          double(d.first_rank), double(d.first_element), double(d.first_bit)};
}

BitwiseDifference from_numbers(const std::vector<double>& n) {
  const auto at = [&](std::size_t i) { return i < n.size() ? static_cast<long long>(n[i]) : -1; };
  return {at(0), at(1), at(2), at(3), at(4), at(5)};
}

std::string bitwise_header_line(int repeats) {
  return fmt::format("# Bitwise Repeatability: {} comparisons after one reference run \n", repeats);
}

std::string bitwise_detail_line(const BitwiseDifference& d, bool in_place) {
  return fmt::format(
      "# Bitwise mismatch ({}): first repeat {}, rank {}, element {}, bit {}; {} elements and {} "
      "bits differ\n",
      in_place ? "in-place" : "out-of-place", d.first_repeat, d.first_rank, d.first_element,
      d.first_bit, d.elements, d.bits);
}

std::string bitwise_footer_line(std::size_t mismatches) {
  return fmt::format("# {:<20} : {} {}\n", "Bitwise mismatches", mismatches,
                     mismatches ? "FAILED" : "OK");
}

}  // namespace perfgate::collectives

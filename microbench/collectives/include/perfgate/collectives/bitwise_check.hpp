#pragma once
// The bitwise repeatability check (--bitwise-repeats N; the newest nccl-tests run the same
// check): one reference run of a case's operation, then N more on the same inputs, each output
// compared bit for bit with the reference's. A deterministic collective differs in no bit. One
// that does is not reproducible: a reduction whose order changed between runs (another
// algorithm or protocol for the same size), or a link or GPU that flips bits, which the data
// check's tolerance for reduced floating-point values can let pass.
#include <cstddef>
#include <span>
#include <string>
#include <vector>

namespace perfgate::collectives {

struct BitwiseDifference {
  long long elements = 0;  // output elements unlike the reference's, summed over the repeats
  long long bits = 0;      // output bits unlike the reference's, summed over the repeats
  // The first difference: the lowest repeat (1 to N), then rank, element, and bit (0 the least
  // significant of the element's little-endian bytes); -1 while there is none.
  long long first_repeat = -1, first_rank = -1, first_element = -1, first_bit = -1;
  bool any() const { return bits > 0; }
};

// Adds to `diff` how `now`, elements `first_element`... of repeat `repeat`'s output, differs from
// `reference`, the same elements of the reference run's output (`element_bytes` each; the two
// spans are equally long). Repeats and elements are added in ascending order, so the first
// difference found is the first.
void add_differences(std::span<const std::byte> reference, std::span<const std::byte> now,
                     std::size_t element_bytes, std::size_t first_element, int repeat,
                     BitwiseDifference& diff);

// Every rank's differences (in rank order) as the run's: counts summed, the first difference the
// lowest repeat's, of the lowest rank among those.
BitwiseDifference combine_ranks(const std::vector<BitwiseDifference>& ranks);

// Adds a later run's differences (another cycle, -N) to `into`: counts summed, the first
// difference kept from the earliest run that had one.
void add_later_run(BitwiseDifference& into, const BitwiseDifference& later);

// The six numbers of a difference, for a gather over the ranks, and back.
std::vector<double> to_numbers(const BitwiseDifference& diff);
BitwiseDifference from_numbers(const std::vector<double>& numbers);

// nccl-tests' lines: after the parameter line "# Bitwise Repeatability: 4 comparisons after one
// reference run "; after a row that differed "# Bitwise mismatch (in-place): first repeat 2,
// rank 1, element 4093, bit 0; 64 elements and 64 bits differ"; in the footer "# Bitwise
// mismatches   : 1 FAILED" (the placements that differed).
std::string bitwise_header_line(int repeats);
std::string bitwise_detail_line(const BitwiseDifference& diff, bool in_place);
std::string bitwise_footer_line(std::size_t mismatches);

}  // namespace perfgate::collectives

#pragma once
// The split statistic of change-point detection: standardised Mann–Whitney U between the
// points before and after each candidate split, maximised over the allowed splits.
#include <cstddef>
#include <vector>

namespace perfgate::regress::detail {

struct BestSplit {
  std::size_t at = 0;    // offset within the segment of the first "after" point
  double statistic = 0;  // |z| of the best split
};

// `ranks` are the segment's midranks (any permutation of them is a valid input: the
// permutation test shuffles ranks, which is the same as shuffling values).
BestSplit best_split(const std::vector<double>& ranks, std::size_t min_left, std::size_t min_right);

std::vector<double> midranks(const std::vector<double>& values);

}  // namespace perfgate::regress::detail

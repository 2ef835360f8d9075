#pragma once
// The count columns of nccl-tests' results (#wrong, #bitdiff; nwrong and different_bits in its
// JSON), which it prints and writes as floating-point numbers: one rule for the log and the JSON
// readers on what such a number must be to count.
#include <cmath>
#include <optional>

namespace perfgate::baselines {

// Far beyond any buffer's element or bit count, so that a sum over cycles stays in long long.
inline constexpr long long kMaxNcclTestsCount = 1'000'000'000'000'000;  // 1e18

// `value` as a count: whole, from 0 below kMaxNcclTestsCount; none otherwise (bounded before the
// cast: a double past long long's range has no integer value).
inline std::optional<long long> nccl_tests_count(double value) {
  if (!(value >= 0 && value < double(kMaxNcclTestsCount)) || value != std::floor(value))
    return std::nullopt;
  return static_cast<long long>(value);
}

}  // namespace perfgate::baselines

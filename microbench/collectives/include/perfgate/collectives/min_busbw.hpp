#pragma once
// nccl-tests' bandwidth floor: with NCCL_TESTS_MIN_BW=X (GB/s) set, a table whose average bus
// bandwidth is below 90 % of X fails ("# Avg bus bandwidth : 12.3 FAILED") and so does the run.
// A nightly health check of a cluster sets it instead of reading the numbers.
#include <optional>
#include <string>

namespace perfgate::collectives {

inline constexpr const char* kMinBusbwVariable = "NCCL_TESTS_MIN_BW";

// The floor `text` (the variable's value) sets: nullopt when unset (nullptr). A value that is not
// a finite number from 0 is an InputError naming the variable and the value (nccl-tests' atof
// would read "fast" as 0 and pass every run).
std::optional<double> parse_min_busbw(const char* text);

// nccl-tests' rule: the average passes when it is at least 90 % of the floor.
bool meets_min_busbw(double avg_busbw, double min_busbw);

// The footer's verdict after the average: "" without a floor, else "OK" or "FAILED".
std::string min_busbw_verdict(double avg_busbw, std::optional<double> min_busbw);

}  // namespace perfgate::collectives

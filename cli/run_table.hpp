#pragma once
// The readable results table printed at the end of `perfgate run`.
#include <string>

#include "perfgate/core/model.hpp"

namespace perfgate::cli {

// One row per result: name, status, median, ±half-width of the spread (MAD/median), samples,
// achieved GB/s and TFLOP/s; failed cases show their message under the row.
std::string results_table(const Run& run);

}  // namespace perfgate::cli

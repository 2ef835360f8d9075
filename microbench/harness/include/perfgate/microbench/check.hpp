#pragma once
// The correctness check before timing: implementation output against the double reference.
#include <string>
#include <vector>

namespace perfgate::microbench {

struct CheckOutcome {
  bool passed = false;
  double rel_error = 0;  // ‖out − ref‖∞ / ‖ref‖∞
  std::string message;   // why it failed; empty when passed
};

// NaN or infinity anywhere in `out` never passes; neither does a size mismatch.
CheckOutcome check_output(const std::vector<double>& out, const std::vector<double>& ref,
                          double bound);

}  // namespace perfgate::microbench

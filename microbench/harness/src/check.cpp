#include "perfgate/microbench/check.hpp"

#include <algorithm>
#include <cmath>

#include <fmt/format.h>

namespace perfgate::microbench {

CheckOutcome check_output(const std::vector<double>& out, const std::vector<double>& ref,
                          double bound) {
  CheckOutcome c;
  if (out.size() != ref.size()) {
    c.message =
        fmt::format("correctness: output has {} values, reference {}", out.size(), ref.size());
    return c;
  }
  double ref_norm = 0, err = 0;
  std::size_t worst = 0;
  for (std::size_t i = 0; i < out.size(); ++i) {
    if (!std::isfinite(out[i])) {
      c.rel_error = std::numeric_limits<double>::infinity();
      c.message =
          fmt::format("correctness: output[{}] is {} (reference {:.6g})", i, out[i], ref[i]);
      return c;
    }
    ref_norm = std::max(ref_norm, std::abs(ref[i]));
    const double e = std::abs(out[i] - ref[i]);
    if (e > err) err = e, worst = i;
  }
  c.rel_error = ref_norm > 0 ? err / ref_norm : err;
  c.passed = c.rel_error <= bound;
  if (!c.passed)
    c.message = fmt::format(
        "correctness: relative error {:.3g} exceeds bound {:.3g} (output[{}] = {:.6g}, reference "
        "{:.6g})",
        c.rel_error, bound, worst, out[worst], ref[worst]);
  return c;
}

}  // namespace perfgate::microbench

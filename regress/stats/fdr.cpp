// Benjamini–Hochberg step-up adjustment: one comparison tests many series at once, and the
// false discovery rate, not each test's level, is what a reviewer experiences.
#include <algorithm>

#include "perfgate/regress/stats.hpp"

namespace perfgate::regress::stats {

std::vector<double> benjamini_hochberg(const std::vector<double>& p) {
  const std::size_t m = p.size();
  std::vector<std::size_t> order(m);
  for (std::size_t i = 0; i < m; ++i) order[i] = i;
  std::sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) { return p[a] < p[b]; });
  std::vector<double> adjusted(m);
  double running = 1.0;
  for (std::size_t rank = m; rank >= 1; --rank) {
    const std::size_t i = order[rank - 1];
    running = std::min(running, p[i] * static_cast<double>(m) / static_cast<double>(rank));
    adjusted[i] = running;
  }
  return adjusted;
}

}  // namespace perfgate::regress::stats

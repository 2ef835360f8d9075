#include "perfgate/collectives/stragglers.hpp"

#include <algorithm>

namespace perfgate::collectives {

std::vector<double> own_times(std::span<const RankTiming> ranks) {
  double latest_pre = 0;
  for (const RankTiming& r : ranks) latest_pre = std::max(latest_pre, r.pre_us);
  std::vector<double> own;
  own.reserve(ranks.size());
  for (const RankTiming& r : ranks) {
    const double waited = latest_pre - r.pre_us;
    own.push_back(std::clamp(r.total_us - waited, r.pre_us, std::max(r.pre_us, r.total_us)));
  }
  return own;
}

double median(std::span<const double> values) {
  std::vector<double> v(values.begin(), values.end());
  std::sort(v.begin(), v.end());
  const std::size_t mid = v.size() / 2;
  return v.size() % 2 ? v[mid] : (v[mid - 1] + v[mid]) / 2;
}

std::vector<Straggler> find_stragglers(std::span<const double> per_rank_us, double margin,
                                       double floor_us) {
  std::vector<Straggler> found;
  if (per_rank_us.size() < 2) return found;
  const double mid = median(per_rank_us);
  for (std::size_t r = 0; r < per_rank_us.size(); ++r) {
    if (per_rank_us[r] > mid * (1 + margin) && per_rank_us[r] - mid >= floor_us) {
      found.push_back(
          {static_cast<int>(r), per_rank_us[r], mid, mid > 0 ? per_rank_us[r] / mid - 1 : 0});
    }
  }
  std::sort(found.begin(), found.end(),
            [](const Straggler& a, const Straggler& b) { return a.time_us > b.time_us; });
  return found;
}

}  // namespace perfgate::collectives

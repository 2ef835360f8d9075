#pragma once
// Per-rank times and the ranks that hold the others back.
#include <span>
#include <vector>

namespace perfgate::collectives {

// What one rank measured over a timed loop, per operation.
struct RankTiming {
  double total_us = 0;   // wall time per operation (includes waiting for late peers)
  double pre_us = 0;     // time spent before entering the collective (its own work)
  double launch_us = 0;  // host time to launch the operation, before waiting for it (-C)
};

// A rank's own time: its total minus the wait for the latest arrival (latest pre − its pre),
// kept within [pre, total]. In a synchronous collective all totals are equal; own times are not.
std::vector<double> own_times(std::span<const RankTiming> ranks);

double median(std::span<const double> values);  // of a non-empty span

struct Straggler {
  int rank = 0;
  double time_us = 0;
  double median_us = 0;
  double excess = 0;  // time / median − 1
};

// Ranks whose time exceeds the median rank's by more than `margin` (0.10 = 10 %) and by at least
// `floor_us` (timer noise on microsecond operations is not a straggler), slowest first.
std::vector<Straggler> find_stragglers(std::span<const double> per_rank_us, double margin,
                                       double floor_us = 0);

}  // namespace perfgate::collectives

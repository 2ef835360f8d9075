#include "perfgate/regress/block_noise.hpp"

#include <cmath>

namespace perfgate::regress {

// Why a standard deviation and not a MAD: a gate has few blocks (5 by default), and the
// median deviation from the median of three values is the smaller of two distances — it
// reads ~0 whenever two blocks agree, e.g. when one process of three lands in a slow mode.
// A wide tolerance costs an INCONCLUSIVE; a collapsed one costs a false REGRESSION that
// blocks a merge. One wild block therefore widens the tolerance, on purpose.
namespace {

std::map<std::string, std::vector<double>> medians_of(const std::vector<Run>& blocks) {
  std::map<std::string, std::vector<double>> medians;
  for (const Run& run : blocks)
    for (const Result& r : run.results)
      if (r.status == ResultStatus::ok && r.summary.n > 0)
        medians[r.key.id()].push_back(r.summary.median);
  return medians;
}

}  // namespace

std::map<std::string, BlockMedians> block_medians(const std::vector<Run>& baseline,
                                                  const std::vector<Run>& candidate) {
  std::map<std::string, BlockMedians> out;
  const auto before = medians_of(baseline);
  for (auto& [id, after] : medians_of(candidate))
    if (const auto it = before.find(id); it != before.end())
      out[id] = {it->second, std::move(after)};
  return out;
}

std::map<std::string, double> between_block_noise(const std::vector<std::vector<Run>>& sides) {
  struct Pooled {
    double squares = 0;
    std::size_t degrees = 0;
  };
  std::map<std::string, Pooled> pooled;
  for (const auto& blocks : sides) {
    std::map<std::string, std::vector<double>> logs;  // series id → log block medians
    for (const Run& run : blocks)
      for (const Result& r : run.results)
        if (r.status == ResultStatus::ok && r.summary.n > 0 && r.summary.median > 0)
          logs[r.key.id()].push_back(std::log(r.summary.median));
    for (const auto& [id, values] : logs) {
      if (values.size() < 2) continue;
      double mean = 0;
      for (double v : values) mean += v;
      mean /= static_cast<double>(values.size());
      Pooled& p = pooled[id];
      for (double v : values) p.squares += (v - mean) * (v - mean);
      p.degrees += values.size() - 1;
    }
  }
  std::map<std::string, double> noise;
  for (const auto& [id, p] : pooled)
    noise[id] = std::sqrt(p.squares / static_cast<double>(p.degrees));
  return noise;
}

}  // namespace perfgate::regress

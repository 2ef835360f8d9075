#pragma once
// The per-iteration report of a timed loop (-I 1) as the newest nccl-tests computes it, so that
// its four columns mean the same in both tables.
#include <span>

#include <nlohmann/json.hpp>

namespace perfgate::collectives {

struct IterationStats {
  double min_us = 0, max_us = 0;
  double p99_us = 0;  // nearest rank: the ceil(n * 99 / 100)-th smallest, the maximum below 100
  double cv_pct = 0;  // population standard deviation over the mean, in percent (0 at mean 0)
};

// `times_us` holds one time per iteration; at least one.
IterationStats iteration_stats(std::span<const double> times_us);

// {min_us, max_us, p99_us, cv_pct}: the keys of nccl-tests' JSON, which perfgate's documents
// and nccl-tests reader use too.
nlohmann::json iteration_stats_json(const IterationStats& s);

}  // namespace perfgate::collectives

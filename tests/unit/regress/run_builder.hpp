#pragma once
// Builds small runs for comparator tests.
#include <random>
#include <string>
#include <vector>

#include "perfgate/core/model.hpp"

namespace perfgate::test {

inline Result make_result(const std::string& family, std::vector<double> samples,
                          Direction direction = Direction::lower_is_better,
                          const std::string& metric = "time") {
  Result r;
  r.key.family = family;
  r.key.metric = metric;
  r.direction = direction;
  r.unit = direction == Direction::lower_is_better ? "ns" : "GB/s";
  r.summary = summarize(samples);
  r.samples = std::move(samples);
  return r;
}

// `count` log-normal samples around `level` with coefficient of variation `cv`.
inline std::vector<double> noisy(double level, double cv, std::size_t count, std::uint64_t seed) {
  std::mt19937_64 rng(seed);
  std::normal_distribution<double> normal(0.0, cv);
  std::vector<double> out;
  for (std::size_t i = 0; i < count; ++i) out.push_back(level * std::exp(normal(rng)));
  return out;
}

inline Run make_run(const std::string& uuid, std::vector<Result> results) {
  Run run;
  run.uuid = uuid;
  run.fingerprint.comparable["cpu.model"] = "test-cpu";
  run.results = std::move(results);
  return run;
}

}  // namespace perfgate::test

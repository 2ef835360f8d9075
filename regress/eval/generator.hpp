#pragma once
// Seeded generator of labelled benchmark data: samples with known noise, histories with known
// change points. Every figure in docs/evaluation.md comes from it.
#include <cstdint>
#include <random>
#include <string>
#include <vector>

namespace perfgate::eval {

enum class NoiseKind { lognormal, bimodal, outliers };
std::string to_string(NoiseKind kind);

struct NoiseSpec {
  NoiseKind kind = NoiseKind::lognormal;
  double cv = 0.01;  // coefficient of variation of the main mode
};

struct LabelledHistory {
  std::vector<double> values;              // one per-run summary per point
  std::vector<std::size_t> change_points;  // indices where a new level begins
};

struct HistorySpec {
  std::size_t length = 100;
  double cv = 0.01;
  std::size_t max_steps = 3;
  std::size_t min_spacing = 12;  // between steps and from either end
  double outlier_rate = 0.02;    // single spikes of ±30 %
  double drift = 0.0;            // total slow relative drift over the history
};

class Generator {
 public:
  explicit Generator(std::uint64_t seed) : rng_(seed) {}
  // `count` repetitions around `level`: log-normal; bimodal (30 % of samples in a second mode
  // 3 CV above); or log-normal with 5 % of samples 20–50 % slow (preemption, page faults).
  std::vector<double> samples(const NoiseSpec& noise, double level, std::size_t count);
  // Steps of ±5, 10 or 20 % at random places, outliers and optional drift.
  LabelledHistory history(const HistorySpec& spec);

 private:
  std::mt19937_64 rng_;
};

}  // namespace perfgate::eval

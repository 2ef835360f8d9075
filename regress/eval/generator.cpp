#include "generator.hpp"

#include <algorithm>
#include <cmath>

namespace perfgate::eval {

std::string to_string(NoiseKind kind) {
  switch (kind) {
    case NoiseKind::lognormal:
      return "log-normal";
    case NoiseKind::bimodal:
      return "bimodal";
    case NoiseKind::outliers:
      return "outliers";
  }
  return "?";
}

std::vector<double> Generator::samples(const NoiseSpec& noise, double level, std::size_t count) {
  std::normal_distribution<double> normal(0.0, 1.0);
  std::uniform_real_distribution<double> uniform(0.0, 1.0);
  std::vector<double> out;
  out.reserve(count);
  for (std::size_t i = 0; i < count; ++i) {
    double v = level * std::exp(noise.cv * normal(rng_));
    if (noise.kind == NoiseKind::bimodal && uniform(rng_) < 0.3) v *= 1 + 3 * noise.cv;
    if (noise.kind == NoiseKind::outliers && uniform(rng_) < 0.05) v *= 1.2 + 0.3 * uniform(rng_);
    out.push_back(v);
  }
  return out;
}

LabelledHistory Generator::history(const HistorySpec& spec) {
  LabelledHistory h;
  std::uniform_int_distribution<std::size_t> step_count(0, spec.max_steps);
  std::uniform_int_distribution<std::size_t> place(spec.min_spacing,
                                                   spec.length - spec.min_spacing);
  const double sizes[] = {0.05, 0.10, 0.20};
  std::uniform_int_distribution<int> size_pick(0, 2), sign_pick(0, 1);
  const std::size_t wanted = step_count(rng_);
  for (int attempt = 0; attempt < 100 && h.change_points.size() < wanted; ++attempt) {
    const std::size_t at = place(rng_);
    const bool far =
        std::all_of(h.change_points.begin(), h.change_points.end(),
                    [&](std::size_t c) { return (at > c ? at - c : c - at) >= spec.min_spacing; });
    if (far) h.change_points.push_back(at);
  }
  std::sort(h.change_points.begin(), h.change_points.end());
  std::normal_distribution<double> normal(0.0, spec.cv);
  std::uniform_real_distribution<double> uniform(0.0, 1.0);
  double level = 100;
  std::size_t next = 0;
  for (std::size_t i = 0; i < spec.length; ++i) {
    if (next < h.change_points.size() && h.change_points[next] == i) {
      const double size = sizes[size_pick(rng_)];
      level *= sign_pick(rng_) ? 1 + size : 1 / (1 + size);
      ++next;
    }
    const double drift = 1 + spec.drift * static_cast<double>(i) / static_cast<double>(spec.length);
    double v = level * drift * std::exp(normal(rng_));
    if (uniform(rng_) < spec.outlier_rate) v *= sign_pick(rng_) ? 1.3 : 0.7;
    h.values.push_back(v);
  }
  return h;
}

}  // namespace perfgate::eval

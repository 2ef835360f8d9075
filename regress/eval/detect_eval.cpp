#include "detect_eval.hpp"

#include <algorithm>

#include "naive_detectors.hpp"
#include "perfgate/regress/changepoints.hpp"

namespace perfgate::eval {

double DetectScore::precision() const {
  return found ? static_cast<double>(hits) / static_cast<double>(found) : 1.0;
}
double DetectScore::recall() const {
  return true_points ? static_cast<double>(hits) / static_cast<double>(true_points) : 1.0;
}

namespace {

// One-to-one matching of found to true change points within the tolerance, in index order.
void score(const std::vector<std::size_t>& truth, const std::vector<std::size_t>& found,
           std::size_t tolerance, DetectScore& s) {
  s.true_points += truth.size();
  s.found += found.size();
  std::vector<bool> used(truth.size(), false);
  for (std::size_t f : found) {
    for (std::size_t t = 0; t < truth.size(); ++t) {
      const std::size_t distance = f > truth[t] ? f - truth[t] : truth[t] - f;
      if (!used[t] && distance <= tolerance) {
        used[t] = true;
        ++s.hits;
        break;
      }
    }
  }
}

}  // namespace

std::vector<DetectEvalRow> run_detect_eval(const DetectEvalConfig& config,
                                           const std::vector<double>& cvs) {
  std::vector<DetectEvalRow> rows;
  Generator gen(config.seed);
  for (const double drift : {0.0, 0.02}) {
    for (const double cv : cvs) {
      DetectEvalRow row;
      row.cv = cv;
      row.drift = drift;
      HistorySpec spec;
      spec.cv = cv;
      spec.drift = drift;
      for (std::size_t h = 0; h < config.histories; ++h) {
        const LabelledHistory history = gen.history(spec);
        const regress::ChangeReport report =
            regress::detect_change_points(history.values, {}, regress::DetectConfig{});
        std::vector<std::size_t> found;
        for (const auto& cp : report.change_points)
          if (cp.confirmed) found.push_back(cp.index);
        score(history.change_points, found, config.tolerance, row.perfgate);
        score(history.change_points, naive_jump_changes(history.values), config.tolerance,
              row.naive_jump);
      }
      rows.push_back(row);
    }
  }
  return rows;
}

}  // namespace perfgate::eval

#pragma once
// The richer report material (history charts, scaling curves, step decomposition) gathered
// from runs and the store for `perfgate report` and the nightly flow.
#include <vector>

#include "perfgate/baselines/store.hpp"
#include "perfgate/report/report.hpp"

namespace perfgate::cli {

// Efficiency curves of sweep series (metric "efficiency" with a scale), candidate against baseline.
std::vector<report::ScalingCurve> scaling_curves(const Run& candidate,
                                                 const std::vector<Run>& baseline);

// Step-time decomposition per scale of the first sweep workload that reports one
// (compute_time, comm_time, exposed_comm_time beside its time).
std::vector<report::StepDecomposition> step_decomposition(const Run& candidate);

// Per-series history (same fingerprint as the candidate, last `last_n` runs) with change points
// and the baseline band, for the series that need attention first, at most `max_series`.
std::vector<report::HistorySeries> histories(baselines::Store& store,
                                             const regress::Comparison& comparison,
                                             const Run& candidate, std::size_t max_series,
                                             std::size_t last_n);

}  // namespace perfgate::cli

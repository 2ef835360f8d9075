#pragma once
// What a comparison says once its verdicts are decided: worst first, counted by kind, and the
// geometric mean of the estimates. Shared by compare_runs and the gate's confirmation merge.
#include "perfgate/regress/compare.hpp"

namespace perfgate::regress::detail {

// Orders `c.verdicts` worst first, recounts `c.counts`, and recomputes `c.geomean` over every
// verdict with an estimate (its interval at 1 − alpha from the verdicts' intervals).
void summarise(Comparison& c, double alpha);

}  // namespace perfgate::regress::detail

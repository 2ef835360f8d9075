#pragma once
// Hand-built comparisons for the reporter tests: every verdict kind, and hostile names.
#include "perfgate/report/report.hpp"

namespace perfgate::report::testing {

inline const std::string kHostileName = "evil/name:<script>document.title='pwned'</script>|x@time";

VerdictRecord make_verdict(const std::string& series_id, VerdictKind kind, double ratio);
// Nine series, one per verdict kind (plus a second SAME), including kHostileName as INCONCLUSIVE.
Comparison sample_comparison();
ReportInput sample_input();  // sample_comparison() plus history, scaling and step material

}  // namespace perfgate::report::testing

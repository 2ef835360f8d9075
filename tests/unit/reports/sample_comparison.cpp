#include "sample_comparison.hpp"

namespace perfgate::report::testing {

VerdictRecord make_verdict(const std::string& series_id, VerdictKind kind, double ratio) {
  VerdictRecord v;
  v.series_id = series_id;
  v.kind = kind;
  v.ratio = ratio;
  v.ratio_low = ratio * 0.98;
  v.ratio_high = ratio * 1.02;
  v.p_value = 0.001;
  v.p_adjusted = 0.004;
  v.tolerance = 0.02;
  v.n_baseline = 10;
  v.n_candidate = 10;
  v.baseline_runs = {"base-run-1"};
  v.candidate_run = "cand-run-1";
  v.reason = "interval_outside_tolerance";
  return v;
}

Comparison sample_comparison() {
  Comparison c;
  c.candidate_run = "cand-run-1";
  c.baseline_runs = {"base-run-1"};
  c.verdicts = {
      make_verdict("attention/heads:16/seq:2048@time", VerdictKind::same, 1.003),
      make_verdict("gemm/k:4096/m:4096/n:4096@time", VerdictKind::regression, 1.123),
      make_verdict("layernorm/hidden:8192@time", VerdictKind::improvement, 0.91),
      make_verdict(kHostileName, VerdictKind::inconclusive, 1.01),
      make_verdict("softmax/n:1024@time", VerdictKind::acknowledged, 1.06),
      make_verdict("all_reduce/bytes:1048576@busbw", VerdictKind::failed, 1.0),
      make_verdict("copy/bytes:1024@time", VerdictKind::missing, 1.0),
      make_verdict("rope/seq:4096@time", VerdictKind::new_series, 1.0),
      make_verdict("gemm/k:1024/m:1024/n:1024@time", VerdictKind::same, 0.998),
      make_verdict("gemm/k:4096/m:4096/n:4096@time", VerdictKind::regression, 1.051),
  };
  c.verdicts.back().series_id = "gemm/k:8192/m:8192/n:8192@time";
  auto& inconclusive = c.verdicts[3];
  inconclusive.p_value.reset();
  inconclusive.p_adjusted.reset();
  inconclusive.n_baseline = 2;
  inconclusive.n_candidate = 2;
  inconclusive.repetitions_needed = 4;
  inconclusive.reason = "too_few_samples";
  for (auto* one_sided : {&c.verdicts[6], &c.verdicts[7]}) {  // MISSING, NEW: nothing to compare
    one_sided->ratio.reset();
    one_sided->ratio_low.reset();
    one_sided->ratio_high.reset();
    one_sided->p_value.reset();
    one_sided->p_adjusted.reset();
    one_sided->reason =
        one_sided->kind == VerdictKind::missing ? "not_in_candidate" : "not_in_baseline";
  }
  c.verdicts[6].n_candidate = 0;
  c.verdicts[7].n_baseline = 0;
  c.verdicts[5].reason = "candidate_status_error";
  for (const auto& v : c.verdicts) ++c.counts[v.kind];
  c.geomean = {1.02, 1.01, 1.03, 10};
  return c;
}

ReportInput sample_input() {
  ReportInput in;
  in.title = "perfgate premerge";
  in.comparison = sample_comparison();
  in.full_report_hint = "https://ci.example/artifacts/report.html";
  HistorySeries h;
  h.series_id = "gemm/k:4096/m:4096/n:4096@time";
  for (int i = 0; i < 12; ++i) {
    h.run_uuids.push_back("run-" + std::to_string(i));
    h.labels.push_back("2026-11-" + std::to_string(10 + i));
    h.medians.push_back(i < 8 ? 100.0 + (i % 3) : 112.0 + (i % 2));
  }
  h.change_points = {8};
  h.baseline_low = 99.0;
  h.baseline_high = 103.0;
  in.histories.push_back(h);
  HistorySeries hostile = h;
  hostile.series_id = kHostileName;
  hostile.labels.back() = "<img src=x onerror=alert(1)>";
  in.histories.push_back(hostile);
  in.scaling.push_back({"dp_step/model:small@throughput",
                        {1, 2, 4, 8},
                        {1.0, 0.97, 0.93, 0.85},
                        {1.0, 0.98, 0.95, 0.92}});
  in.steps = {{1, 80, 10, 2, 90}, {2, 80, 20, 6, 95}, {4, 80, 30, 12, 100}};
  return in;
}

}  // namespace perfgate::report::testing

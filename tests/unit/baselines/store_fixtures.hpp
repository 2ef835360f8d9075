#pragma once
// Shared helpers for the store tests: temporary store files and hand-built runs.
#include <atomic>
#include <filesystem>
#include <string>
#include <utility>
#include <vector>

#include <unistd.h>

#include "perfgate/baselines/store.hpp"

namespace perfgate::baselines::testing {

// A fresh directory per test, removed afterwards.
class TempDir {
 public:
  TempDir() {
    static std::atomic<int> counter{0};
    path_ = std::filesystem::temp_directory_path() /
            ("perfgate-store-test-" + std::to_string(::getpid()) + "-" + std::to_string(counter++));
    std::filesystem::remove_all(path_);
    std::filesystem::create_directories(path_);
  }
  ~TempDir() { std::filesystem::remove_all(path_); }
  std::filesystem::path file(const std::string& name) const { return path_ / name; }

 private:
  std::filesystem::path path_;
};

inline Result make_result(const std::string& family, const std::string& metric,
                          std::vector<double> samples) {
  Result r;
  r.key.family = family;
  r.key.params = {{"size", "1024"}};
  r.key.metric = metric;
  r.unit = "ns";
  r.samples = std::move(samples);
  r.summary = summarize(r.samples);
  return r;
}

inline Run make_run(const std::string& uuid, const std::string& started_at, double level = 100,
                    const std::string& branch = "main", Trigger trigger = Trigger::nightly) {
  Run run;
  run.uuid = uuid;
  run.suite = "nightly";
  run.trigger = trigger;
  run.code = {"perfgate", branch, "commit-" + uuid, false};
  run.started_at = started_at;
  run.ended_at = started_at;
  run.fingerprint.comparable = {{"cpu.model", "Test CPU"}, {"gpu.model", "none"}};
  run.fingerprint.info = {{"host", "node-1"}};
  run.labels = {{"purpose", "test"}};
  run.metadata = {{"ceiling_gbs", 1000}};
  run.results.push_back(make_result("gemm", "time", {level, level + 1, level + 2}));
  run.results.push_back(make_result("attention", "time", {2 * level, 2 * level + 2}));
  return run;
}

// "2026-01-05T02:00:00Z" for day 5.
// A verdict with every evidence field set (a regression or, for any other kind, one inside
// its tolerance).
inline VerdictRecord make_verdict(const std::string& series, VerdictKind kind,
                                  std::vector<std::string> baseline_runs = {"b1"}) {
  VerdictRecord v;
  v.series_id = series;
  v.kind = kind;
  v.reason =
      kind == VerdictKind::regression ? "interval_above_tolerance" : "interval_inside_tolerance";
  v.ratio = 1.25;
  v.ratio_low = 1.2;
  v.ratio_high = 1.3;
  v.p_value = 0.0002;
  v.p_adjusted = 0.0004;
  v.tolerance = 0.03;
  v.n_baseline = 40;
  v.n_candidate = 10;
  v.repetitions_needed = 0;
  v.baseline_runs = std::move(baseline_runs);
  v.details = {{"baseline_cut", {{"pooled_runs", {"b2"}}}}};
  return v;
}

inline std::string day(int d) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "2026-01-%02dT02:00:00Z", d);
  return buf;
}

}  // namespace perfgate::baselines::testing

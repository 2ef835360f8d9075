#pragma once
// Shared helpers for the store tests: temporary store files and hand-built runs.
#include <atomic>
#include <filesystem>
#include <string>
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
inline std::string day(int d) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "2026-01-%02dT02:00:00Z", d);
  return buf;
}

}  // namespace perfgate::baselines::testing

#pragma once
// perfgate's data model (DESIGN.md §3): runs, series, results, fingerprints, acks.
// Plain values only: no I/O, no SQL, no CUDA.
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "perfgate/core/units.hpp"

namespace perfgate {

// Normalised parameters: sorted key → value, never a string to parse.
using Params = std::map<std::string, std::string>;

// A series is (benchmark family, parameters, metric).
struct SeriesKey {
  std::string family;
  Params params;
  std::string metric = "time";

  // Canonical benchmark name, Google Benchmark ArgNames style: "family/k1:v1/k2:v2" (keys sorted).
  std::string name() const;
  // Canonical series id: name() + "@" + metric, e.g. "gemm/k:4096/m:4096/n:4096@time".
  std::string id() const;
  // Inverse of id(); throws InputError naming `text` when it is not of that form.
  static SeriesKey parse_id(const std::string& text);

  auto operator<=>(const SeriesKey&) const = default;
};

enum class ResultStatus { ok, error, skipped, timeout, crashed };
std::string_view to_string(ResultStatus s);
ResultStatus result_status_from_string(std::string_view s);  // throws InputError

// Where a sweep series sits on the scaling axis.
struct Scale {
  int nodes = 1;
  int gpus_per_node = 0;  // 0 on CPU-only runs
  int ranks = 1;
  auto operator<=>(const Scale&) const = default;
};

// Summary computed from the raw samples (kept with the run forever, even when samples are pruned).
struct Summary {
  std::size_t n = 0;
  double median = 0, mean = 0, min = 0, max = 0;
  double mad = 0;  // median absolute deviation (unscaled)
};
Summary summarize(const std::vector<double>& samples);

// One series in one run.
struct Result {
  SeriesKey key;
  std::string unit = "ns";
  Direction direction = Direction::lower_is_better;
  ResultStatus status = ResultStatus::ok;
  std::string message;          // why it failed / was skipped
  std::vector<double> samples;  // one per repetition, in `unit`
  Summary summary;              // of `samples` (or as ingested when only aggregates exist)
  std::optional<Scale> scale;   // set on sweep series
  nlohmann::json extra = nlohmann::json::object();  // per-rank times, counters, notes
};

struct CodeUnderTest {
  std::string repo, branch, commit;
  bool dirty = false;
};

enum class RunStatus { complete, partial, failed };
std::string_view to_string(RunStatus s);
RunStatus run_status_from_string(std::string_view s);  // throws InputError

enum class Trigger { nightly, premerge, adhoc };
std::string_view to_string(Trigger t);
Trigger trigger_from_string(std::string_view s);  // throws InputError

// The keys that make results comparable, and informational keys that do not.
struct Fingerprint {
  std::map<std::string, std::string> comparable;  // cpu.model, gpu.model, compiler, build_type, ...
  std::map<std::string, std::string> info;        // host, slurm.job_id, kernel, ...
  // Stable hex digest of `comparable` (canonical JSON, FNV-1a 64): an identity key, not a MAC.
  std::string digest() const;
};

// Keys whose values differ (or exist on one side only), minus `ignored`; sorted.
std::vector<std::string> differing_keys(const Fingerprint& a, const Fingerprint& b,
                                        const std::vector<std::string>& ignored = {});

struct Run {
  std::string uuid;  // idempotency key
  std::string suite;
  Trigger trigger = Trigger::adhoc;
  CodeUnderTest code;
  std::string started_at, ended_at;  // ISO-8601 UTC, e.g. 2026-11-29T22:31:05Z
  RunStatus status = RunStatus::complete;
  Fingerprint fingerprint;
  std::map<std::string, std::string> labels;
  nlohmann::json metadata = nlohmann::json::object();  // ceilings, doctor findings, gbench context
  std::vector<Result> results;
};

// An acknowledged regression: matching series report ACKNOWLEDGED until expiry.
struct Ack {
  std::int64_t id = 0;
  std::string pattern;  // series pattern (see series_pattern.hpp)
  std::string reason, author;
  std::string created_at, expires_at;    // ISO-8601 UTC
  std::optional<double> expected_ratio;  // expected new level (candidate/baseline); re-alert beyond
};

}  // namespace perfgate

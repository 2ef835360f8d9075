#pragma once
// The SQLite baseline store (DESIGN.md §3): the system of record for every measured number.
// CONTRACT shared by cli/, gate and reliability tests. The store's owner may add members;
// changing or removing these needs everyone's agreement.
#include <filesystem>
#include <iosfwd>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "perfgate/core/model.hpp"
#include "perfgate/core/verdict.hpp"

namespace perfgate::baselines {

enum class OpenMode { read_write, read_only };

struct IngestOutcome {
  std::string run_uuid;
  bool inserted = false;  // false: that uuid was already stored (a no-op)
  std::size_t series = 0, samples = 0;
};

// One run's summary of one series, oldest first in a history.
struct HistoryPoint {
  std::string run_uuid, commit, branch, started_at;
  // Where the run measured (its fingerprint's info): the host, and the PCI bus id of its GPU
  // where it had one; empty when the run did not record them.
  std::string host, gpu_pci_bus_id;
  // "node07 GPU 00000000:18:00.0", "node07", or empty.
  std::string place() const {
    if (gpu_pci_bus_id.empty()) return host;
    return (host.empty() ? "" : host + " ") + "GPU " + gpu_pci_bus_id;
  }
  ResultStatus status = ResultStatus::ok;
  Summary summary;
  std::vector<double> samples;  // empty when pruned or not requested
};

struct HistoryFilter {
  std::optional<std::string> fingerprint_digest;
  std::optional<std::string> branch, suite;
  std::optional<std::string> since, until;  // ISO-8601
  bool with_samples = false;
  std::size_t last_n = 0;           // 0: all
  bool complete_runs_only = false;  // skip partial/failed runs and results that are not ok
};

// A named baseline policy (DESIGN.md §3).
struct BaselinePolicy {
  enum class Kind { pinned_run, latest_nightly, pooled_last_k };
  std::string name;
  Kind kind = Kind::latest_nightly;
  std::string run_uuid;               // pinned_run
  std::optional<std::string> branch;  // latest_nightly (required), pooled_last_k (optional)
  std::optional<std::string> suite;   // restricts the candidates to one suite
  std::size_t k = 0;                  // pooled_last_k
  std::string created_at;
};
std::string describe(const BaselinePolicy& policy);  // e.g. "latest complete nightly on main"

struct PruneOutcome {
  std::size_t results = 0, samples = 0;  // raw samples dropped (summaries stay)
};

enum class ExportFormat { csv, json };

// Why a baseline selector resolved to these runs (printed by `baseline show`, kept in verdicts).
struct ResolvedBaseline {
  std::vector<std::string> run_uuids;  // newest first
  std::string explanation;
};

class Store {
 public:
  // Creates the file when missing (read_write only) and applies forward migrations.
  // Throws ToolError naming the path: unwritable, not a perfgate store, written by a newer
  // perfgate.
  static std::unique_ptr<Store> open(const std::filesystem::path& path, OpenMode mode);
  virtual ~Store() = default;

  // One transaction per run. Re-ingesting a stored uuid returns inserted=false and changes nothing.
  virtual IngestOutcome ingest(const Run& run) = 0;

  // Run selectors: a uuid or unique prefix, "latest", "latest~N", "baseline:NAME",
  // "branch:NAME" (latest complete run on that branch). Throws InputError naming the selector.
  virtual std::vector<std::string> resolve(const std::string& selector,
                                           const std::optional<std::string>& suite = {}) = 0;
  virtual Run load_run(const std::string& uuid) = 0;  // throws InputError when unknown

  // Per-series history for `history`, `detect` and noise estimates.
  virtual std::vector<std::string> list_series(const std::string& pattern) = 0;  // series ids
  virtual std::vector<HistoryPoint> history(const std::string& series_id,
                                            const HistoryFilter& filter) = 0;

  // Relative run-to-run noise of each series: 1.4826·MAD/median of the per-run medians of the
  // last `last_k` complete runs with that fingerprint; absent when fewer than 5 such runs exist.
  virtual std::map<std::string, double> run_to_run_noise(const std::vector<std::string>& series_ids,
                                                         const std::string& fingerprint_digest,
                                                         std::size_t last_k) = 0;

  // Baseline policies and acks.
  virtual ResolvedBaseline resolve_baseline(const std::string& name) = 0;
  virtual std::vector<Ack> active_acks(const std::string& now_iso8601) = 0;

  // Verdicts are persisted with the evidence needed to re-check them. One transaction; a
  // comparison is its candidate plus its set of baseline runs, and saving one again replaces
  // the verdicts an earlier save of that same comparison wrote (others of the candidate stay).
  virtual void save_verdicts(const std::string& candidate_run,
                             const std::vector<VerdictRecord>& verdicts) = 0;

  // ---- Members added by the store (above: the shared contract) ----

  // Path and mode the store was opened with; schema version it holds.
  virtual const std::filesystem::path& path() const = 0;
  virtual int schema_version() = 0;

  // Latest complete run per (suite, branch, fingerprint); nullopt when there is none.
  virtual std::optional<std::string> latest_complete_run(const std::string& suite,
                                                         const std::string& branch,
                                                         const std::string& fingerprint_digest) = 0;
  // Samples of `run_uuids` pooled per series id (runs without a series contribute nothing).
  virtual std::map<std::string, std::vector<double>> pooled_samples(
      const std::vector<std::string>& run_uuids) = 0;

  // Baseline policies. resolve_baseline_for restricts candidates to one fingerprint.
  virtual void set_baseline(const BaselinePolicy& policy) = 0;  // replaces one of that name
  virtual std::vector<BaselinePolicy> list_baselines() = 0;
  virtual BaselinePolicy get_baseline(const std::string& name) = 0;  // InputError when unknown
  virtual void remove_baseline(const std::string& name) = 0;         // InputError when unknown
  virtual ResolvedBaseline resolve_baseline_for(const std::string& name,
                                                const std::optional<std::string>& fingerprint) = 0;
  // The runs the policy would pool if it wanted `count` of them (newest first, same skips as
  // resolve_baseline_for): the longer window of history a change-point cut looks at.
  virtual std::vector<std::string> eligible_nightlies(const std::string& name,
                                                      const std::optional<std::string>& fingerprint,
                                                      std::size_t count) = 0;

  // Acks: `add_ack` validates the pattern and returns the new id; `list_acks` includes expired.
  virtual std::int64_t add_ack(const Ack& ack) = 0;
  virtual std::vector<Ack> list_acks() = 0;
  // Every verdict saved for the candidate, in the order saved (comparison after comparison).
  virtual std::vector<VerdictRecord> load_verdicts(const std::string& candidate_run) = 0;

  // Retention: drops raw samples of runs started before `cutoff_iso8601`; summaries stay.
  virtual PruneOutcome prune_samples(const std::string& cutoff_iso8601) = 0;
  // Online copy through SQLite's backup API; refuses to overwrite `destination`.
  virtual void backup(const std::filesystem::path& destination) = 0;
  // Every run: CSV (one row per result) or JSON (one perfgate document per run).
  virtual void export_to(std::ostream& out, ExportFormat format) = 0;
};

}  // namespace perfgate::baselines

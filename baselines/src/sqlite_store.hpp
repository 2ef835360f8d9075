#pragma once
// The one implementation of Store: SQLite in WAL mode. Split over store_*.cpp by concern.
#include <cstdint>

#include "perfgate/baselines/store.hpp"
#include "sqlite.hpp"

namespace perfgate::baselines {

class SqliteStore final : public Store {
 public:
  SqliteStore(std::filesystem::path path, OpenMode mode);

  // store_ingest.cpp
  IngestOutcome ingest(const Run& run) override;

  // store_queries.cpp
  std::vector<std::string> resolve(const std::string& selector,
                                   const std::optional<std::string>& suite) override;
  Run load_run(const std::string& uuid) override;
  std::vector<std::string> list_series(const std::string& pattern) override;
  std::vector<HistoryPoint> history(const std::string& series_id,
                                    const HistoryFilter& filter) override;
  std::map<std::string, double> run_to_run_noise(const std::vector<std::string>& series_ids,
                                                 const std::string& fingerprint_digest,
                                                 std::size_t last_k) override;
  std::optional<std::string> latest_complete_run(const std::string& suite,
                                                 const std::string& branch,
                                                 const std::string& fingerprint_digest) override;
  std::map<std::string, std::vector<double>> pooled_samples(
      const std::vector<std::string>& run_uuids) override;

  // store_policies.cpp
  ResolvedBaseline resolve_baseline(const std::string& name) override;
  ResolvedBaseline resolve_baseline_for(const std::string& name,
                                        const std::optional<std::string>& fingerprint) override;
  std::vector<std::string> eligible_nightlies(const std::string& name,
                                              const std::optional<std::string>& fingerprint,
                                              std::size_t count) override;
  void set_baseline(const BaselinePolicy& policy) override;
  std::vector<BaselinePolicy> list_baselines() override;
  BaselinePolicy get_baseline(const std::string& name) override;
  void remove_baseline(const std::string& name) override;
  std::vector<Ack> active_acks(const std::string& now_iso8601) override;
  std::int64_t add_ack(const Ack& ack) override;
  std::vector<Ack> list_acks() override;

  // store_verdicts.cpp
  void save_verdicts(const std::string& candidate_run,
                     const std::vector<VerdictRecord>& verdicts) override;
  std::vector<VerdictRecord> load_verdicts(const std::string& candidate_run) override;

  // store_maintenance.cpp
  PruneOutcome prune_samples(const std::string& cutoff_iso8601) override;
  void backup(const std::filesystem::path& destination) override;
  void export_to(std::ostream& out, ExportFormat format) override;

  const std::filesystem::path& path() const override { return path_; }
  int schema_version() override;

 private:
  void require_writable(const std::string& what) const;  // ToolError in read-only mode
  std::int64_t run_id(const std::string& uuid);          // InputError when unknown
  std::int64_t fingerprint_id(const Fingerprint& fp);
  std::int64_t series_id(const Result& result);
  std::optional<std::int64_t> find_series(const std::string& series_key);
  // Runs newest first: all (or one suite), as uuids.
  std::vector<std::string> runs_newest_first(const std::optional<std::string>& suite,
                                             std::size_t limit);
  bool has_regression_verdict(const std::string& uuid);
  // Nightlies a policy may use, newest first, until `wanted` are chosen; the passed-over ones
  // with the reason (store_policies.cpp).
  struct NightlyWalk {
    std::vector<std::string> chosen, chosen_labels, skipped;
  };
  NightlyWalk walk_nightlies(const BaselinePolicy& policy,
                             const std::optional<std::string>& fingerprint, std::size_t wanted);

  std::filesystem::path path_;
  OpenMode mode_;
  sql::Database db_;
};

}  // namespace perfgate::baselines

// Persisted verdicts (DESIGN.md §3): what a comparison decided, with its evidence, and the
// REGRESSION marks that keep a regressed run from becoming a baseline by itself.
#include <set>

#include "json_columns.hpp"
#include "perfgate/core/identity.hpp"
#include "sqlite_store.hpp"

namespace perfgate::baselines {

namespace {
using RunSet = std::set<std::string>;
RunSet run_set(const std::vector<std::string>& uuids) {
  return {uuids.begin(), uuids.end()};
}
RunSet stored_run_set(const std::string& json_text) {
  return run_set(nlohmann::json::parse(json_text).get<std::vector<std::string>>());
}
}  // namespace

bool SqliteStore::has_regression_verdict(const std::string& uuid) {
  auto q =
      db_.query("SELECT 1 FROM verdicts WHERE candidate_run = ?1 AND kind = 'REGRESSION' LIMIT 1");
  q->bind(1, uuid);
  return q->step();
}

void SqliteStore::save_verdicts(const std::string& candidate_run,
                                const std::vector<VerdictRecord>& verdicts) {
  require_writable("save verdicts for run " + candidate_run);
  sql::WriteTransaction tx(db_);
  // Comparing the same pair again replaces the earlier answer instead of piling up a second.
  std::set<RunSet> comparisons;
  for (const auto& v : verdicts) comparisons.insert(run_set(v.baseline_runs));
  std::vector<std::int64_t> replaced;
  auto old = db_.query("SELECT id, baseline_runs FROM verdicts WHERE candidate_run = ?1");
  old->bind(1, candidate_run);
  while (old->step())
    if (comparisons.count(stored_run_set(old->text(1)))) replaced.push_back(old->int64(0));
  auto drop = db_.query("DELETE FROM verdicts WHERE id = ?1");
  for (const std::int64_t id : replaced) {
    drop->reset();
    drop->bind(1, id).run();
  }

  auto q = db_.query(
      "INSERT INTO verdicts (candidate_run, series_key, kind, reason, ratio, ratio_low, "
      "ratio_high, p_value, p_adjusted, tolerance, n_baseline, n_candidate, repetitions_needed, "
      "baseline_runs, details, created_at) "
      "VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13, ?14, ?15, ?16)");
  const std::string now = utc_now_iso8601();
  for (const auto& v : verdicts) {
    q->reset();
    q->bind(1, candidate_run)
        .bind(2, v.series_id)
        .bind(3, to_string(v.kind))
        .bind(4, v.reason)
        .bind(5, v.ratio)
        .bind(6, v.ratio_low)
        .bind(7, v.ratio_high)
        .bind(8, v.p_value)
        .bind(9, v.p_adjusted)
        .bind(10, v.tolerance)
        .bind(11, static_cast<std::int64_t>(v.n_baseline))
        .bind(12, static_cast<std::int64_t>(v.n_candidate))
        .bind(13, static_cast<std::int64_t>(v.repetitions_needed))
        .bind(14, nlohmann::json(v.baseline_runs).dump())
        .bind(15, v.details.dump())
        .bind(16, now)
        .run();
  }
  tx.commit();
}

std::vector<VerdictRecord> SqliteStore::load_verdicts(const std::string& candidate_run) {
  auto q = db_.query(
      "SELECT series_key, kind, reason, ratio, ratio_low, ratio_high, p_value, p_adjusted, "
      "tolerance, n_baseline, n_candidate, repetitions_needed, baseline_runs, details "
      "FROM verdicts WHERE candidate_run = ?1 ORDER BY id");
  q->bind(1, candidate_run);
  std::vector<VerdictRecord> out;
  while (q->step()) {
    VerdictRecord v;
    v.candidate_run = candidate_run;
    v.series_id = q->text(0);
    v.kind = verdict_kind_from_string(q->text(1));
    v.reason = q->text(2);
    v.ratio = q->optional_real(3);
    v.ratio_low = q->optional_real(4);
    v.ratio_high = q->optional_real(5);
    v.p_value = q->optional_real(6);
    v.p_adjusted = q->optional_real(7);
    v.tolerance = q->real(8);
    v.n_baseline = static_cast<std::size_t>(q->int64(9));
    v.n_candidate = static_cast<std::size_t>(q->int64(10));
    v.repetitions_needed = static_cast<std::size_t>(q->int64(11));
    v.baseline_runs = nlohmann::json::parse(q->text(12)).get<std::vector<std::string>>();
    v.details = json_column(q->text(13));
    out.push_back(std::move(v));
  }
  return out;
}

}  // namespace perfgate::baselines

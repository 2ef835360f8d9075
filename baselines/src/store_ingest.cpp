// Ingest: one BEGIN IMMEDIATE transaction per run; a stored uuid is a no-op.
#include <set>

#include "json_columns.hpp"
#include "perfgate/core/error.hpp"
#include "perfgate/core/identity.hpp"
#include "sample_blob.hpp"
#include "sqlite_store.hpp"

namespace perfgate::baselines {

std::int64_t SqliteStore::fingerprint_id(const Fingerprint& fp) {
  const std::string digest = fp.digest();
  auto find = db_.query("SELECT id FROM fingerprints WHERE digest = ?1");
  find->bind(1, digest);
  if (find->step()) return find->int64(0);
  auto insert = db_.query("INSERT INTO fingerprints (digest, comparable) VALUES (?1, ?2)");
  insert->bind(1, digest).bind(2, to_json_text(fp.comparable)).run();
  return db_.last_insert_rowid();
}

std::optional<std::int64_t> SqliteStore::find_series(const std::string& series_key) {
  auto find = db_.query("SELECT id FROM series WHERE series_key = ?1");
  find->bind(1, series_key);
  if (!find->step()) return std::nullopt;
  return find->int64(0);
}

std::int64_t SqliteStore::series_id(const Result& r) {
  const std::string key = r.key.id();
  auto find = db_.query("SELECT id, unit FROM series WHERE series_key = ?1");
  find->bind(1, key);
  if (find->step()) {
    // One series, one unit: mixing units would make every comparison of it meaningless.
    if (find->text(1) != r.unit)
      throw InputError("series " + key + ": unit '" + r.unit + "' differs from the stored '" +
                       find->text(1) + "'");
    return find->int64(0);
  }
  auto insert = db_.query(
      "INSERT INTO series (series_key, family, params, metric, unit, direction) "
      "VALUES (?1, ?2, ?3, ?4, ?5, ?6)");
  insert->bind(1, key)
      .bind(2, r.key.family)
      .bind(3, to_json_text(r.key.params))
      .bind(4, r.key.metric)
      .bind(5, r.unit)
      .bind(6, to_string(r.direction))
      .run();
  return db_.last_insert_rowid();
}

IngestOutcome SqliteStore::ingest(const Run& run) {
  require_writable("ingest run " + run.uuid);
  if (run.uuid.empty()) throw InputError("run has no uuid");
  IngestOutcome outcome{run.uuid, false, run.results.size(), 0};
  for (const auto& r : run.results) outcome.samples += r.samples.size();

  sql::WriteTransaction tx(db_);
  auto exists = db_.query("SELECT 1 FROM runs WHERE uuid = ?1");
  exists->bind(1, run.uuid);
  if (exists->step()) return outcome;  // already stored: the transaction rolls back untouched

  const std::int64_t fp = fingerprint_id(run.fingerprint);
  auto insert_run = db_.query(
      "INSERT INTO runs (uuid, suite, trigger, repo, branch, commit_sha, dirty, started_at, "
      "ended_at, status, fingerprint_id, fingerprint_info, labels, metadata, ingested_at) "
      "VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13, ?14, ?15)");
  const std::string now = utc_now_iso8601();
  insert_run->bind(1, run.uuid)
      .bind(2, run.suite)
      .bind(3, to_string(run.trigger))
      .bind(4, run.code.repo)
      .bind(5, run.code.branch)
      .bind(6, run.code.commit)
      .bind(7, std::int64_t{run.code.dirty ? 1 : 0})
      .bind(8, run.started_at.empty() ? now : run.started_at)
      .bind(9, run.ended_at)
      .bind(10, to_string(run.status))
      .bind(11, fp)
      .bind(12, to_json_text(run.fingerprint.info))
      .bind(13, to_json_text(run.labels))
      .bind(14, to_json_text(run.metadata))
      .bind(15, now)
      .run();
  const std::int64_t rid = db_.last_insert_rowid();

  auto insert_result = db_.query(
      "INSERT INTO results (run_id, series_id, status, message, n, median, mean, min, max, mad, "
      "scale_nodes, scale_gpus_per_node, scale_ranks, extra) "
      "VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13, ?14)");
  auto insert_samples =
      db_.query("INSERT INTO samples (run_id, series_id, data) VALUES (?1, ?2, ?3)");
  std::set<std::int64_t> seen;
  for (const auto& r : run.results) {
    const std::int64_t sid = series_id(r);
    if (!seen.insert(sid).second)
      throw InputError("run " + run.uuid + ": series " + r.key.id() + " appears twice");
    const Summary s = r.samples.empty() ? r.summary : summarize(r.samples);
    insert_result->reset();
    insert_result->bind(1, rid)
        .bind(2, sid)
        .bind(3, to_string(r.status))
        .bind(4, r.message)
        .bind(5, static_cast<std::int64_t>(s.n));
    if (s.n > 0) {
      insert_result->bind(6, s.median)
          .bind(7, s.mean)
          .bind(8, s.min)
          .bind(9, s.max)
          .bind(10, s.mad);
    }
    if (r.scale) {
      insert_result->bind(11, std::int64_t{r.scale->nodes})
          .bind(12, std::int64_t{r.scale->gpus_per_node})
          .bind(13, std::int64_t{r.scale->ranks});
    }
    if (!r.extra.is_null() && !r.extra.empty()) insert_result->bind(14, r.extra.dump());
    insert_result->run();
    if (!r.samples.empty()) {
      const std::string blob = encode_samples(r.samples);
      insert_samples->reset();
      insert_samples->bind(1, rid).bind(2, sid).bind_blob(3, blob.data(), blob.size()).run();
    }
  }
  tx.commit();
  outcome.inserted = true;
  return outcome;
}

}  // namespace perfgate::baselines

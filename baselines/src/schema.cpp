#include "schema.hpp"

#include "perfgate/core/error.hpp"

namespace perfgate::baselines {

const std::vector<std::string>& migration_steps() {
  static const std::vector<std::string> steps = {
      // 1: runs, fingerprints, series, results (with scale points), samples, baselines, acks.
      R"sql(
CREATE TABLE perfgate_schema (version INTEGER NOT NULL);
INSERT INTO perfgate_schema (version) VALUES (0);
CREATE TABLE fingerprints (
  id INTEGER PRIMARY KEY,
  digest TEXT NOT NULL UNIQUE,
  comparable TEXT NOT NULL            -- canonical JSON of the comparable keys
);
CREATE TABLE runs (
  id INTEGER PRIMARY KEY,
  uuid TEXT NOT NULL UNIQUE,
  suite TEXT NOT NULL,
  trigger TEXT NOT NULL,
  repo TEXT NOT NULL, branch TEXT NOT NULL, commit_sha TEXT NOT NULL, dirty INTEGER NOT NULL,
  started_at TEXT NOT NULL, ended_at TEXT NOT NULL,
  status TEXT NOT NULL,
  fingerprint_id INTEGER NOT NULL REFERENCES fingerprints(id),
  fingerprint_info TEXT NOT NULL,     -- JSON: informational keys (host, job id, ...)
  labels TEXT NOT NULL,               -- JSON object
  metadata TEXT NOT NULL,             -- JSON object
  ingested_at TEXT NOT NULL
);
CREATE INDEX runs_by_time ON runs (started_at, id);
CREATE INDEX runs_by_branch ON runs (branch, trigger, started_at);
CREATE TABLE series (
  id INTEGER PRIMARY KEY,
  series_key TEXT NOT NULL UNIQUE,    -- SeriesKey::id(), e.g. "gemm/m:4096@time"
  family TEXT NOT NULL,
  params TEXT NOT NULL,               -- JSON object, keys sorted
  metric TEXT NOT NULL,
  unit TEXT NOT NULL,
  direction TEXT NOT NULL
);
-- Summaries are kept forever; raw samples live apart so retention can drop them.
CREATE TABLE results (
  run_id INTEGER NOT NULL REFERENCES runs(id),
  series_id INTEGER NOT NULL REFERENCES series(id),
  status TEXT NOT NULL, message TEXT NOT NULL,
  n INTEGER NOT NULL, median REAL, mean REAL, min REAL, max REAL, mad REAL,
  scale_nodes INTEGER, scale_gpus_per_node INTEGER, scale_ranks INTEGER,
  extra TEXT,                         -- JSON object, NULL when empty
  PRIMARY KEY (run_id, series_id)
) WITHOUT ROWID;
CREATE INDEX results_by_series ON results (series_id, run_id);
CREATE TABLE samples (
  run_id INTEGER NOT NULL,
  series_id INTEGER NOT NULL,
  data BLOB NOT NULL,                 -- little-endian doubles, one per repetition
  PRIMARY KEY (run_id, series_id)
) WITHOUT ROWID;
CREATE TABLE baselines (
  name TEXT PRIMARY KEY,
  kind TEXT NOT NULL,                 -- pinned | latest_nightly | pooled
  run_uuid TEXT, branch TEXT, suite TEXT, k INTEGER,
  created_at TEXT NOT NULL
);
CREATE TABLE acks (
  id INTEGER PRIMARY KEY AUTOINCREMENT,
  pattern TEXT NOT NULL, reason TEXT NOT NULL, author TEXT NOT NULL,
  created_at TEXT NOT NULL, expires_at TEXT NOT NULL
);
)sql",
      // 2: persisted verdicts; acks gain an expected new level.
      R"sql(
ALTER TABLE acks ADD COLUMN expected_ratio REAL;
CREATE TABLE verdicts (
  id INTEGER PRIMARY KEY,
  candidate_run TEXT NOT NULL,
  series_key TEXT NOT NULL,
  kind TEXT NOT NULL, reason TEXT NOT NULL,
  ratio REAL, ratio_low REAL, ratio_high REAL, p_value REAL, p_adjusted REAL,
  tolerance REAL NOT NULL,
  n_baseline INTEGER NOT NULL, n_candidate INTEGER NOT NULL, repetitions_needed INTEGER NOT NULL,
  baseline_runs TEXT NOT NULL,        -- JSON array of uuids
  details TEXT NOT NULL,              -- JSON object
  created_at TEXT NOT NULL
);
CREATE INDEX verdicts_by_candidate ON verdicts (candidate_run, kind);
)sql",
  };
  return steps;
}

int stored_schema_version(sql::Database& db) {
  auto has_table =
      db.query("SELECT count(*) FROM sqlite_master WHERE type='table' AND name='perfgate_schema'");
  has_table->step();
  if (has_table->int64(0) == 0) {
    auto any = db.query("SELECT count(*) FROM sqlite_master");
    any->step();
    if (any->int64(0) != 0)
      throw ToolError("store " + db.path() + ": not a perfgate store (it holds other tables)");
    return 0;
  }
  auto version = db.query("SELECT version FROM perfgate_schema");
  if (!version->step())
    throw ToolError("store " + db.path() + ": damaged (perfgate_schema has no row)");
  return static_cast<int>(version->int64(0));
}

namespace {
void refuse_newer(const sql::Database& db, int version) {
  if (version > kStoreSchemaVersion)
    throw ToolError("store " + db.path() + ": written by a newer perfgate (store schema " +
                    std::to_string(version) + ", this perfgate understands up to " +
                    std::to_string(kStoreSchemaVersion) + "); upgrade perfgate");
}
}  // namespace

void migrate(sql::Database& db) {
  sql::WriteTransaction tx(db);
  const int version = stored_schema_version(db);
  refuse_newer(db, version);
  if (version == kStoreSchemaVersion) return;  // nothing to do; the transaction rolls back
  const auto steps = migration_steps();
  for (int v = version + 1; v <= kStoreSchemaVersion; ++v)
    db.exec(steps[static_cast<std::size_t>(v - 1)]);
  db.exec("UPDATE perfgate_schema SET version = " + std::to_string(kStoreSchemaVersion));
  tx.commit();
}

void check_readable_version(sql::Database& db) {
  const int version = stored_schema_version(db);
  if (version == 0) throw ToolError("store " + db.path() + ": not a perfgate store (empty)");
  refuse_newer(db, version);
  if (version < kStoreSchemaVersion)
    throw ToolError("store " + db.path() + ": schema " + std::to_string(version) +
                    " needs upgrading to " + std::to_string(kStoreSchemaVersion) +
                    "; open it read-write once (e.g. perfgate ingest) to upgrade it");
}

}  // namespace perfgate::baselines

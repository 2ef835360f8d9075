-- A store as perfgate wrote it at store schema 1 (frozen: do not edit when the schema moves on).
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
UPDATE perfgate_schema SET version = 1;
INSERT INTO fingerprints (id, digest, comparable) VALUES (1, '00000000000000aa', '{"cpu.model":"Old CPU"}');
INSERT INTO runs VALUES (1, '11111111-1111-4111-8111-111111111111', 'nightly', 'nightly', 'repo', 'main', 'c0ffee', 0,
  '2025-01-01T00:00:00Z', '2025-01-01T01:00:00Z', 'complete', 1, '{}', '{}', '{}', '2025-01-01T01:00:01Z');
INSERT INTO series (id, series_key, family, params, metric, unit, direction)
  VALUES (1, 'gemm/m:64@time', 'gemm', '{"m":"64"}', 'time', 'ns', 'lower_is_better');
INSERT INTO results VALUES (1, 1, 'ok', '', 3, 11.0, 11.0, 10.0, 12.0, 1.0, NULL, NULL, NULL, NULL);
INSERT INTO samples VALUES (1, 1, X'000000000000244000000000000026400000000000002840');
INSERT INTO acks (pattern, reason, author, created_at, expires_at)
  VALUES ('gemm/*', 'known slowdown', 'alice', '2025-01-01T00:00:00Z', '2099-12-31T23:59:59Z');

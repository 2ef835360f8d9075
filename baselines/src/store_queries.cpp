// Read paths: selectors, whole runs, series histories, noise estimates, pooled samples.
#include <algorithm>
#include <cmath>

#include "digits.hpp"
#include "json_columns.hpp"
#include "perfgate/core/error.hpp"
#include "perfgate/core/series_pattern.hpp"
#include "sample_blob.hpp"
#include "sqlite_store.hpp"

namespace perfgate::baselines {

namespace {
// "2026-01-31" as an upper bound means the whole day.
std::string inclusive_until(const std::string& until) {
  return until.size() == 10 ? until + "T23:59:59Z" : until;
}

double median_of(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  const std::size_t n = v.size();
  return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}
}  // namespace

std::int64_t SqliteStore::run_id(const std::string& uuid) {
  auto q = db_.query("SELECT id FROM runs WHERE uuid = ?1");
  q->bind(1, uuid);
  if (!q->step()) throw InputError("run " + uuid + ": not in store " + path_.string());
  return q->int64(0);
}

std::vector<std::string> SqliteStore::runs_newest_first(const std::optional<std::string>& suite,
                                                        std::size_t limit) {
  auto q = db_.query(
      "SELECT uuid FROM runs WHERE (?1 IS NULL OR suite = ?1) "
      "ORDER BY started_at DESC, id DESC LIMIT ?2");
  q->bind(1, suite).bind(2, static_cast<std::int64_t>(limit));
  std::vector<std::string> out;
  while (q->step()) out.push_back(q->text(0));
  return out;
}

std::vector<std::string> SqliteStore::resolve(const std::string& selector,
                                              const std::optional<std::string>& suite) {
  const std::string where = suite ? " (suite " + *suite + ")" : "";
  if (selector == "latest" || selector.rfind("latest~", 0) == 0) {
    std::size_t back = 0;
    if (selector != "latest") {
      const std::string n = selector.substr(7);
      if (!all_digits(n))
        throw InputError("run selector '" + selector + "': expected latest~N with N a number");
      back = std::stoul(n);
    }
    const auto runs = runs_newest_first(suite, back + 1);
    if (runs.size() <= back)
      throw InputError("run selector '" + selector + "': the store holds only " +
                       std::to_string(runs.size()) + " run(s)" + where);
    return {runs[back]};
  }
  if (selector.rfind("baseline:", 0) == 0) return resolve_baseline(selector.substr(9)).run_uuids;
  if (selector.rfind("branch:", 0) == 0) {
    const std::string branch = selector.substr(7);
    auto q = db_.query(
        "SELECT uuid FROM runs WHERE branch = ?1 AND status = 'complete' "
        "AND (?2 IS NULL OR suite = ?2) ORDER BY started_at DESC, id DESC LIMIT 1");
    q->bind(1, branch).bind(2, suite);
    if (!q->step())
      throw InputError("run selector '" + selector + "': no complete run on branch '" + branch +
                       "'" + where);
    return {q->text(0)};
  }
  if (selector.empty()) throw InputError("run selector is empty");
  auto q = db_.query(
      "SELECT uuid FROM runs WHERE substr(uuid, 1, ?2) = ?1 AND (?3 IS NULL OR suite = ?3) "
      "LIMIT 3");
  q->bind(1, selector).bind(2, static_cast<std::int64_t>(selector.size())).bind(3, suite);
  std::vector<std::string> found;
  while (q->step()) found.push_back(q->text(0));
  if (found.empty())
    throw InputError("run selector '" + selector + "': no run with that uuid or prefix" + where);
  if (found.size() > 1)
    throw InputError("run selector '" + selector + "': ambiguous prefix (" + found[0] + ", " +
                     found[1] + (found.size() > 2 ? ", ..." : "") + ")");
  return found;
}

Run SqliteStore::load_run(const std::string& uuid) {
  auto q = db_.query(
      "SELECT r.id, r.suite, r.trigger, r.repo, r.branch, r.commit_sha, r.dirty, r.started_at, "
      "r.ended_at, r.status, f.comparable, r.fingerprint_info, r.labels, r.metadata "
      "FROM runs r JOIN fingerprints f ON f.id = r.fingerprint_id WHERE r.uuid = ?1");
  q->bind(1, uuid);
  if (!q->step()) throw InputError("run " + uuid + ": not in store " + path_.string());
  Run run;
  run.uuid = uuid;
  const std::int64_t rid = q->int64(0);
  run.suite = q->text(1);
  run.trigger = trigger_from_string(q->text(2));
  run.code = {q->text(3), q->text(4), q->text(5), q->int64(6) != 0};
  run.started_at = q->text(7);
  run.ended_at = q->text(8);
  run.status = run_status_from_string(q->text(9));
  run.fingerprint.comparable = string_map_column(q->text(10));
  run.fingerprint.info = string_map_column(q->text(11));
  run.labels = string_map_column(q->text(12));
  run.metadata = json_column(q->text(13));

  auto rq = db_.query(
      "SELECT s.family, s.params, s.metric, s.unit, s.direction, res.status, res.message, res.n, "
      "res.median, res.mean, res.min, res.max, res.mad, res.scale_nodes, "
      "res.scale_gpus_per_node, res.scale_ranks, res.extra, sm.data "
      "FROM results res JOIN series s ON s.id = res.series_id "
      "LEFT JOIN samples sm ON sm.run_id = res.run_id AND sm.series_id = res.series_id "
      "WHERE res.run_id = ?1 ORDER BY s.series_key");
  rq->bind(1, rid);
  while (rq->step()) {
    Result r;
    r.key.family = rq->text(0);
    r.key.params = string_map_column(rq->text(1));
    r.key.metric = rq->text(2);
    r.unit = rq->text(3);
    r.direction = direction_from_string(rq->text(4));
    r.status = result_status_from_string(rq->text(5));
    r.message = rq->text(6);
    r.summary = {static_cast<std::size_t>(rq->int64(7)),
                 rq->real(8),
                 rq->real(9),
                 rq->real(10),
                 rq->real(11),
                 rq->real(12)};
    if (!rq->is_null(13))
      r.scale = Scale{static_cast<int>(rq->int64(13)), static_cast<int>(rq->int64(14)),
                      static_cast<int>(rq->int64(15))};
    if (!rq->is_null(16)) r.extra = json_column(rq->text(16));
    if (!rq->is_null(17)) {
      const auto [data, bytes] = rq->blob_view(17);
      r.samples = decode_samples(data, bytes);
    }
    run.results.push_back(std::move(r));
  }
  return run;
}

std::vector<std::string> SqliteStore::list_series(const std::string& pattern) {
  const SeriesPattern p(pattern);
  auto q = db_.query("SELECT series_key FROM series ORDER BY series_key");
  std::vector<std::string> out;
  while (q->step()) {
    std::string key = q->text(0);
    if (p.matches(key)) out.push_back(std::move(key));
  }
  return out;
}

std::vector<HistoryPoint> SqliteStore::history(const std::string& series_key,
                                               const HistoryFilter& filter) {
  const auto sid = find_series(series_key);
  if (!sid) throw InputError("unknown series '" + series_key + "' in store " + path_.string());
  auto q = db_.query(
      "SELECT r.uuid, r.commit_sha, r.branch, r.started_at, res.status, res.n, res.median, "
      "res.mean, res.min, res.max, res.mad, sm.data, "
      "json_extract(r.fingerprint_info, '$.host'), "
      "json_extract(r.fingerprint_info, '$.\"gpu.pci_bus_id\"') "
      "FROM results res JOIN runs r ON r.id = res.run_id "
      "JOIN fingerprints f ON f.id = r.fingerprint_id "
      "LEFT JOIN samples sm ON ?8 AND sm.run_id = res.run_id AND sm.series_id = res.series_id "
      "WHERE res.series_id = ?1 AND (?2 IS NULL OR f.digest = ?2) "
      "AND (?3 IS NULL OR r.branch = ?3) AND (?4 IS NULL OR r.suite = ?4) "
      "AND (?5 IS NULL OR r.started_at >= ?5) AND (?6 IS NULL OR r.started_at <= ?6) "
      "AND (?7 = 0 OR (r.status = 'complete' AND res.status = 'ok')) "
      "ORDER BY r.started_at DESC, r.id DESC LIMIT ?9");
  q->bind(1, *sid)
      .bind(2, filter.fingerprint_digest)
      .bind(3, filter.branch)
      .bind(4, filter.suite)
      .bind(5, filter.since)
      .bind(6, filter.until ? std::optional(inclusive_until(*filter.until)) : std::nullopt)
      .bind(7, std::int64_t{filter.complete_runs_only ? 1 : 0})
      .bind(8, std::int64_t{filter.with_samples ? 1 : 0})
      .bind(9, filter.last_n ? static_cast<std::int64_t>(filter.last_n) : std::int64_t{-1});
  std::vector<HistoryPoint> out;
  while (q->step()) {
    HistoryPoint p;
    p.run_uuid = q->text(0);
    p.commit = q->text(1);
    p.branch = q->text(2);
    p.started_at = q->text(3);
    p.status = result_status_from_string(q->text(4));
    p.summary = {static_cast<std::size_t>(q->int64(5)),
                 q->real(6),
                 q->real(7),
                 q->real(8),
                 q->real(9),
                 q->real(10)};
    if (!q->is_null(11)) {
      const auto [data, bytes] = q->blob_view(11);
      p.samples = decode_samples(data, bytes);
    }
    if (!q->is_null(12)) p.host = q->text(12);
    if (!q->is_null(13)) p.gpu_pci_bus_id = q->text(13);
    out.push_back(std::move(p));
  }
  std::reverse(out.begin(), out.end());  // oldest first
  return out;
}

std::map<std::string, double> SqliteStore::run_to_run_noise(
    const std::vector<std::string>& series_ids, const std::string& fingerprint_digest,
    std::size_t last_k) {
  std::map<std::string, double> out;
  HistoryFilter filter;
  filter.fingerprint_digest = fingerprint_digest;
  filter.last_n = last_k;
  filter.complete_runs_only = true;
  for (const auto& id : series_ids) {
    if (!find_series(id)) continue;
    std::vector<double> medians;
    for (const auto& p : history(id, filter))
      if (p.summary.n > 0) medians.push_back(p.summary.median);
    if (medians.size() < 5) continue;
    const double m = median_of(medians);
    if (m == 0 || !std::isfinite(m)) continue;
    std::vector<double> dev;
    for (double v : medians) dev.push_back(std::abs(v - m));
    out[id] = 1.4826 * median_of(dev) / std::abs(m);
  }
  return out;
}

std::optional<std::string> SqliteStore::latest_complete_run(const std::string& suite,
                                                            const std::string& branch,
                                                            const std::string& fingerprint_digest) {
  auto q = db_.query(
      "SELECT r.uuid FROM runs r JOIN fingerprints f ON f.id = r.fingerprint_id "
      "WHERE r.suite = ?1 AND r.branch = ?2 AND f.digest = ?3 AND r.status = 'complete' "
      "ORDER BY r.started_at DESC, r.id DESC LIMIT 1");
  q->bind(1, suite).bind(2, branch).bind(3, fingerprint_digest);
  if (!q->step()) return std::nullopt;
  return q->text(0);
}

std::map<std::string, std::vector<double>> SqliteStore::pooled_samples(
    const std::vector<std::string>& run_uuids) {
  std::map<std::string, std::vector<double>> out;
  for (const auto& uuid : run_uuids) {
    const std::int64_t rid = run_id(uuid);
    auto q = db_.query(
        "SELECT s.series_key, sm.data FROM samples sm JOIN series s ON s.id = sm.series_id "
        "WHERE sm.run_id = ?1");
    q->bind(1, rid);
    while (q->step()) {
      const auto [data, bytes] = q->blob_view(1);
      const auto values = decode_samples(data, bytes);
      auto& pool = out[q->text(0)];
      pool.insert(pool.end(), values.begin(), values.end());
    }
  }
  return out;
}

}  // namespace perfgate::baselines

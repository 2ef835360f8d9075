// Baseline policies and acks (verdicts: store_verdicts.cpp).
#include <fmt/format.h>

#include "perfgate/core/error.hpp"
#include "perfgate/core/identity.hpp"
#include "perfgate/core/series_pattern.hpp"
#include "sqlite_store.hpp"

namespace perfgate::baselines {

namespace {
std::string_view kind_text(BaselinePolicy::Kind k) {
  switch (k) {
    case BaselinePolicy::Kind::pinned_run:
      return "pinned";
    case BaselinePolicy::Kind::latest_nightly:
      return "latest_nightly";
    case BaselinePolicy::Kind::pooled_last_k:
      return "pooled";
  }
  return "pinned";
}
BaselinePolicy::Kind kind_from_text(const std::string& s) {
  if (s == "pinned") return BaselinePolicy::Kind::pinned_run;
  if (s == "latest_nightly") return BaselinePolicy::Kind::latest_nightly;
  if (s == "pooled") return BaselinePolicy::Kind::pooled_last_k;
  throw ToolError("stored baseline kind '" + s + "' is unknown");
}
std::optional<std::string> optional_text(sql::Statement& s, int col) {
  if (s.is_null(col)) return std::nullopt;
  return s.text(col);
}
}  // namespace

std::string describe(const BaselinePolicy& p) {
  const std::string suite = p.suite ? " in suite " + *p.suite : "";
  switch (p.kind) {
    case BaselinePolicy::Kind::pinned_run:
      return "pinned run " + p.run_uuid;
    case BaselinePolicy::Kind::latest_nightly:
      return "latest complete nightly on " + p.branch.value_or("?") + suite;
    case BaselinePolicy::Kind::pooled_last_k:
      return "pooled samples of the last " + std::to_string(p.k) + " complete nightlies" +
             (p.branch ? " on " + *p.branch : "") + suite;
  }
  return "";
}

void SqliteStore::set_baseline(const BaselinePolicy& p) {
  require_writable("set baseline " + p.name);
  if (p.name.empty()) throw InputError("baseline name is empty");
  if (p.kind == BaselinePolicy::Kind::pinned_run) run_id(p.run_uuid);  // must exist
  if (p.kind == BaselinePolicy::Kind::latest_nightly && (!p.branch || p.branch->empty()))
    throw InputError("baseline " + p.name + ": --latest-nightly-on needs a branch");
  if (p.kind == BaselinePolicy::Kind::pooled_last_k && p.k == 0)
    throw InputError("baseline " + p.name + ": --pooled-last needs K >= 1");
  sql::WriteTransaction tx(db_);
  auto q = db_.query(
      "INSERT OR REPLACE INTO baselines (name, kind, run_uuid, branch, suite, k, created_at) "
      "VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7)");
  q->bind(1, p.name).bind(2, kind_text(p.kind));
  if (p.kind == BaselinePolicy::Kind::pinned_run) q->bind(3, p.run_uuid);
  q->bind(4, p.branch).bind(5, p.suite).bind(6, static_cast<std::int64_t>(p.k));
  q->bind(7, p.created_at.empty() ? utc_now_iso8601() : p.created_at).run();
  tx.commit();
}

std::vector<BaselinePolicy> SqliteStore::list_baselines() {
  auto q = db_.query(
      "SELECT name, kind, run_uuid, branch, suite, k, created_at FROM baselines ORDER BY name");
  std::vector<BaselinePolicy> out;
  while (q->step()) {
    BaselinePolicy p;
    p.name = q->text(0);
    p.kind = kind_from_text(q->text(1));
    p.run_uuid = q->text(2);
    p.branch = optional_text(*q, 3);
    p.suite = optional_text(*q, 4);
    p.k = static_cast<std::size_t>(q->int64(5));
    p.created_at = q->text(6);
    out.push_back(std::move(p));
  }
  return out;
}

BaselinePolicy SqliteStore::get_baseline(const std::string& name) {
  for (auto& p : list_baselines())
    if (p.name == name) return p;
  throw InputError("unknown baseline '" + name + "' (see perfgate baseline list)");
}

void SqliteStore::remove_baseline(const std::string& name) {
  require_writable("remove baseline " + name);
  sql::WriteTransaction tx(db_);
  auto q = db_.query("DELETE FROM baselines WHERE name = ?1");
  q->bind(1, name).run();
  if (db_.changes() == 0) throw InputError("unknown baseline '" + name + "'");
  tx.commit();
}

ResolvedBaseline SqliteStore::resolve_baseline(const std::string& name) {
  return resolve_baseline_for(name, std::nullopt);
}

SqliteStore::NightlyWalk SqliteStore::walk_nightlies(const BaselinePolicy& p,
                                                     const std::optional<std::string>& fingerprint,
                                                     std::size_t wanted) {
  // Walk nightlies newest first; a run that is not complete, or that a comparison found
  // regressed, never becomes the baseline by itself: say which runs were passed over and why.
  auto q = db_.query(
      "SELECT r.uuid, r.status, r.branch, r.commit_sha, r.started_at FROM runs r "
      "JOIN fingerprints f ON f.id = r.fingerprint_id WHERE r.trigger = 'nightly' "
      "AND (?1 IS NULL OR r.branch = ?1) AND (?2 IS NULL OR r.suite = ?2) "
      "AND (?3 IS NULL OR f.digest = ?3) ORDER BY r.started_at DESC, r.id DESC");
  q->bind(1, p.branch).bind(2, p.suite).bind(3, fingerprint);
  NightlyWalk walk;
  while (walk.chosen.size() < wanted && q->step()) {
    const std::string uuid = q->text(0);
    const std::string label = fmt::format("{} ({} {} {})", uuid.substr(0, 8), q->text(2),
                                          q->text(3).substr(0, 10), q->text(4));
    if (q->text(1) != "complete") {
      walk.skipped.push_back(label + ": status " + q->text(1));
    } else if (has_regression_verdict(uuid)) {
      walk.skipped.push_back(label + ": has a REGRESSION verdict");
    } else {
      walk.chosen.push_back(uuid);
      walk.chosen_labels.push_back(label);
    }
  }
  return walk;
}

ResolvedBaseline SqliteStore::resolve_baseline_for(const std::string& name,
                                                   const std::optional<std::string>& fingerprint) {
  const BaselinePolicy p = get_baseline(name);
  ResolvedBaseline out;
  if (p.kind == BaselinePolicy::Kind::pinned_run) {
    out.run_uuids = {p.run_uuid};
    out.explanation = "baseline " + name + ": " + describe(p);
    return out;
  }
  const std::size_t wanted = p.kind == BaselinePolicy::Kind::pooled_last_k ? p.k : 1;
  NightlyWalk walk = walk_nightlies(p, fingerprint, wanted);
  out.run_uuids = std::move(walk.chosen);
  std::string text = "baseline " + name + ": " + describe(p) +
                     (fingerprint ? " with fingerprint " + *fingerprint : "");
  if (out.run_uuids.empty())
    throw InsufficientDataError(
        text + ": no eligible run" +
        (walk.skipped.empty()
             ? ""
             : " (skipped " + fmt::format("{}", fmt::join(walk.skipped, "; ")) + ")"));
  text += " -> " + fmt::format("{}", fmt::join(walk.chosen_labels, ", "));
  if (out.run_uuids.size() < wanted)
    text += fmt::format(" (only {} of {} wanted)", out.run_uuids.size(), wanted);
  if (!walk.skipped.empty())
    text += "; skipped " + fmt::format("{}", fmt::join(walk.skipped, "; "));
  out.explanation = text;
  return out;
}

std::vector<std::string> SqliteStore::eligible_nightlies(
    const std::string& name, const std::optional<std::string>& fingerprint, std::size_t count) {
  const BaselinePolicy p = get_baseline(name);
  if (p.kind == BaselinePolicy::Kind::pinned_run) return {p.run_uuid};
  return walk_nightlies(p, fingerprint, count).chosen;
}

std::int64_t SqliteStore::add_ack(const Ack& ack) {
  require_writable("add an ack");
  SeriesPattern{ack.pattern};  // throws InputError for a bad pattern
  if (ack.reason.empty()) throw InputError("ack " + ack.pattern + ": --reason is empty");
  if (ack.expires_at.empty()) throw InputError("ack " + ack.pattern + ": no expiry");
  if (ack.expected_ratio && !(*ack.expected_ratio > 0))
    throw InputError("ack " + ack.pattern + ": --expected-ratio must be positive");
  sql::WriteTransaction tx(db_);
  auto q = db_.query(
      "INSERT INTO acks (pattern, reason, author, created_at, expires_at, expected_ratio) "
      "VALUES (?1, ?2, ?3, ?4, ?5, ?6)");
  q->bind(1, ack.pattern)
      .bind(2, ack.reason)
      .bind(3, ack.author)
      .bind(4, ack.created_at.empty() ? utc_now_iso8601() : ack.created_at)
      .bind(5, ack.expires_at)
      .bind(6, ack.expected_ratio)
      .run();
  const auto id = db_.last_insert_rowid();
  tx.commit();
  return id;
}

namespace {
std::vector<Ack> read_acks(sql::Statement& q) {
  std::vector<Ack> out;
  while (q.step()) {
    Ack a;
    a.id = q.int64(0);
    a.pattern = q.text(1);
    a.reason = q.text(2);
    a.author = q.text(3);
    a.created_at = q.text(4);
    a.expires_at = q.text(5);
    a.expected_ratio = q.optional_real(6);
    out.push_back(std::move(a));
  }
  return out;
}
}  // namespace

std::vector<Ack> SqliteStore::active_acks(const std::string& now_iso8601) {
  auto q = db_.query(
      "SELECT id, pattern, reason, author, created_at, expires_at, expected_ratio FROM acks "
      "WHERE expires_at >= ?1 ORDER BY id");
  q->bind(1, now_iso8601);
  return read_acks(*q);
}

std::vector<Ack> SqliteStore::list_acks() {
  auto q = db_.query(
      "SELECT id, pattern, reason, author, created_at, expires_at, expected_ratio FROM acks "
      "ORDER BY id");
  return read_acks(*q);
}

}  // namespace perfgate::baselines

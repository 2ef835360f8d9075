// Retention, online backup and export.
#include <sqlite3.h>

#include <ostream>

#include <fmt/format.h>

#include "perfgate/core/document.hpp"
#include "perfgate/core/error.hpp"
#include "sqlite_store.hpp"

namespace perfgate::baselines {

PruneOutcome SqliteStore::prune_samples(const std::string& cutoff_iso8601) {
  require_writable("prune samples");
  sql::WriteTransaction tx(db_);
  PruneOutcome out;
  {
    auto count = db_.query(
        "SELECT count(*), coalesce(sum(length(sm.data) / 8), 0) FROM samples sm "
        "JOIN runs r ON r.id = sm.run_id WHERE r.started_at < ?1");
    count->bind(1, cutoff_iso8601);
    count->step();
    out.results = static_cast<std::size_t>(count->int64(0));
    out.samples = static_cast<std::size_t>(count->int64(1));
  }
  auto del =
      db_.query("DELETE FROM samples WHERE run_id IN (SELECT id FROM runs WHERE started_at < ?1)");
  del->bind(1, cutoff_iso8601).run();
  tx.commit();
  return out;
}

void SqliteStore::backup(const std::filesystem::path& destination) {
  if (std::filesystem::exists(destination))
    throw InputError("backup " + destination.string() + ": file exists (refusing to overwrite)");
  // Copy into a temporary file next to the destination, then rename: never half a backup.
  const std::filesystem::path tmp = destination.string() + ".partial";
  std::filesystem::remove(tmp);
  {
    sql::Database dest(tmp.string(), SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE);
    sqlite3_backup* b = sqlite3_backup_init(dest.handle(), "main", db_.handle(), "main");
    if (!b) dest.fail("starting backup");
    int rc = SQLITE_OK;
    do {
      rc = sqlite3_backup_step(b, 1024);
      if (rc == SQLITE_BUSY || rc == SQLITE_LOCKED) sqlite3_sleep(20);
    } while (rc == SQLITE_OK || rc == SQLITE_BUSY || rc == SQLITE_LOCKED);
    sqlite3_backup_finish(b);
    if (rc != SQLITE_DONE) {
      std::filesystem::remove(tmp);
      throw ToolError("backup " + destination.string() + ": " + sqlite3_errstr(rc));
    }
    // A backup is a single self-contained file, whatever the source's journal mode.
    dest.exec("PRAGMA journal_mode = DELETE");
  }
  std::filesystem::rename(tmp, destination);
}

namespace {
// RFC 4180: quote fields that hold a comma, quote or line break.
std::string csv_field(const std::string& s) {
  if (s.find_first_of(",\"\n\r") == std::string::npos) return s;
  std::string out = "\"";
  for (char c : s) out += c == '"' ? std::string("\"\"") : std::string(1, c);
  return out + "\"";
}
}  // namespace

void SqliteStore::export_to(std::ostream& out, ExportFormat format) {
  std::vector<std::string> uuids;
  {
    auto q = db_.query("SELECT uuid FROM runs ORDER BY started_at, id");
    while (q->step()) uuids.push_back(q->text(0));
  }
  if (format == ExportFormat::json) {
    out << "[";
    for (std::size_t i = 0; i < uuids.size(); ++i)
      out << (i ? ",\n" : "\n") << to_document(load_run(uuids[i])).dump();
    out << "\n]\n";
    return;
  }
  out << "run_uuid,suite,branch,commit,started_at,run_status,series,unit,direction,status,n,"
         "median,mean,min,max,mad,samples\n";
  for (const auto& uuid : uuids) {
    const Run run = load_run(uuid);
    for (const auto& r : run.results) {
      std::string samples;
      for (double v : r.samples) samples += (samples.empty() ? "" : " ") + fmt::format("{}", v);
      out << fmt::format("{},{},{},{},{},{},{},{},{},{},{},{},{},{},{},{},{}\n",
                         csv_field(run.uuid), csv_field(run.suite), csv_field(run.code.branch),
                         csv_field(run.code.commit), csv_field(run.started_at),
                         to_string(run.status), csv_field(r.key.id()), csv_field(r.unit),
                         to_string(r.direction), to_string(r.status), r.summary.n, r.summary.median,
                         r.summary.mean, r.summary.min, r.summary.max, r.summary.mad, samples);
    }
  }
}

}  // namespace perfgate::baselines

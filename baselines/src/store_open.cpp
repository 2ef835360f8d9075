// Opening a store: file flags, pragmas that make it safe under concurrent writers, migrations.
#include <sqlite3.h>

#include "perfgate/core/error.hpp"
#include "schema.hpp"
#include "sqlite_store.hpp"

namespace perfgate::baselines {

namespace {
int open_flags(const std::filesystem::path& path, OpenMode mode) {
  if (mode == OpenMode::read_only) {
    if (!std::filesystem::exists(path))
      throw ToolError("store " + path.string() +
                      ": no such file (read-only mode never creates one)");
    return SQLITE_OPEN_READONLY;
  }
  return SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE;
}
}  // namespace

SqliteStore::SqliteStore(std::filesystem::path path, OpenMode mode)
    : path_(std::move(path)), mode_(mode), db_(path_.string(), open_flags(path_, mode)) {
  // Writers queue instead of failing: nightly ingesters and gates may overlap.
  sqlite3_busy_timeout(db_.handle(), 30000);
  if (mode_ == OpenMode::read_only) {
    db_.exec("PRAGMA query_only = ON");
    check_readable_version(db_);
    return;
  }
  db_.exec("PRAGMA journal_mode = WAL");
  // FULL: a committed run survives power loss, not only a crash of perfgate.
  db_.exec("PRAGMA synchronous = FULL");
  migrate(db_);
}

void SqliteStore::require_writable(const std::string& what) const {
  if (mode_ == OpenMode::read_only)
    throw ToolError("store " + path_.string() + " is open read-only: cannot " + what);
}

int SqliteStore::schema_version() {
  return stored_schema_version(db_);
}

std::unique_ptr<Store> Store::open(const std::filesystem::path& path, OpenMode mode) {
  return std::make_unique<SqliteStore>(path, mode);
}

}  // namespace perfgate::baselines

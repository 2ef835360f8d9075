#include "sqlite.hpp"

#include <sqlite3.h>

#include "perfgate/core/error.hpp"

namespace perfgate::baselines::sql {

Statement::Statement(Database& db, std::string_view sql) : db_(db) {
  if (sqlite3_prepare_v3(db.handle(), sql.data(), static_cast<int>(sql.size()),
                         SQLITE_PREPARE_PERSISTENT, &stmt_, nullptr) != SQLITE_OK)
    db.fail("preparing '" + std::string(sql.substr(0, 60)) + "'");
}

Statement::Statement(Statement&& other) noexcept : db_(other.db_), stmt_(other.stmt_) {
  other.stmt_ = nullptr;
}

Statement::~Statement() {
  sqlite3_finalize(stmt_);
}

Statement& Statement::bind(int pos, std::int64_t v) {
  if (sqlite3_bind_int64(stmt_, pos, v) != SQLITE_OK) db_.fail("binding");
  return *this;
}
Statement& Statement::bind(int pos, double v) {
  if (sqlite3_bind_double(stmt_, pos, v) != SQLITE_OK) db_.fail("binding");
  return *this;
}
Statement& Statement::bind(int pos, std::string_view v) {
  if (sqlite3_bind_text(stmt_, pos, v.data(), static_cast<int>(v.size()), SQLITE_TRANSIENT) !=
      SQLITE_OK)
    db_.fail("binding");
  return *this;
}
Statement& Statement::bind(int pos, const std::optional<std::string>& v) {
  return v ? bind(pos, std::string_view(*v)) : bind_null(pos);
}
Statement& Statement::bind(int pos, const std::optional<double>& v) {
  return v ? bind(pos, *v) : bind_null(pos);
}
Statement& Statement::bind_blob(int pos, const void* data, std::size_t bytes) {
  if (sqlite3_bind_blob64(stmt_, pos, data, bytes, SQLITE_STATIC) != SQLITE_OK) db_.fail("binding");
  return *this;
}
Statement& Statement::bind_null(int pos) {
  if (sqlite3_bind_null(stmt_, pos) != SQLITE_OK) db_.fail("binding");
  return *this;
}

bool Statement::step() {
  const int rc = sqlite3_step(stmt_);
  if (rc == SQLITE_ROW) return true;
  if (rc == SQLITE_DONE) return false;
  db_.fail("running '" + std::string(sqlite3_sql(stmt_)).substr(0, 60) + "'");
}

void Statement::run() {
  while (step()) {
  }
}

void Statement::reset() {
  sqlite3_reset(stmt_);
  sqlite3_clear_bindings(stmt_);
}

bool Statement::is_null(int col) const {
  return sqlite3_column_type(stmt_, col) == SQLITE_NULL;
}
std::int64_t Statement::int64(int col) const {
  return sqlite3_column_int64(stmt_, col);
}
double Statement::real(int col) const {
  return sqlite3_column_double(stmt_, col);
}
std::string Statement::text(int col) const {
  const auto* p = sqlite3_column_text(stmt_, col);
  return p ? std::string(reinterpret_cast<const char*>(p),
                         static_cast<std::size_t>(sqlite3_column_bytes(stmt_, col)))
           : std::string();
}
std::optional<double> Statement::optional_real(int col) const {
  if (is_null(col)) return std::nullopt;
  return real(col);
}
std::pair<const void*, std::size_t> Statement::blob_view(int col) const {
  const void* p = sqlite3_column_blob(stmt_, col);
  return {p, static_cast<std::size_t>(sqlite3_column_bytes(stmt_, col))};
}
std::vector<unsigned char> Statement::blob(int col) const {
  const auto [p, n] = blob_view(col);
  const auto* bytes = static_cast<const unsigned char*>(p);
  return bytes ? std::vector<unsigned char>(bytes, bytes + n) : std::vector<unsigned char>();
}

Database::Database(const std::string& path, int flags) : path_(path) {
  const int rc = sqlite3_open_v2(path.c_str(), &db_, flags | SQLITE_OPEN_NOMUTEX, nullptr);
  if (rc != SQLITE_OK) {
    const std::string msg = db_ ? sqlite3_errmsg(db_) : sqlite3_errstr(rc);
    sqlite3_close(db_);
    db_ = nullptr;
    throw ToolError("store " + path + ": cannot open: " + msg);
  }
  sqlite3_extended_result_codes(db_, 1);
}

Database::~Database() {
  cache_.clear();  // statements must be finalized before the connection closes
  sqlite3_close(db_);
}

void Database::exec(const std::string& sql) {
  char* err = nullptr;
  if (sqlite3_exec(db_, sql.c_str(), nullptr, nullptr, &err) != SQLITE_OK) {
    const std::string msg = err ? err : sqlite3_errmsg(db_);
    sqlite3_free(err);
    throw ToolError("store " + path_ + ": " + msg);
  }
}

Query Database::query(const std::string& sql) {
  auto it = cache_.find(sql);
  if (it == cache_.end()) it = cache_.emplace(sql, Statement(*this, sql)).first;
  it->second.reset();
  return Query(it->second);
}

std::int64_t Database::last_insert_rowid() const {
  return sqlite3_last_insert_rowid(db_);
}
int Database::changes() const {
  return sqlite3_changes(db_);
}

void Database::fail(const std::string& what) const {
  throw ToolError("store " + path_ + ": " + what + ": " + sqlite3_errmsg(db_));
}

WriteTransaction::WriteTransaction(Database& db) : db_(db) {
  db_.exec("BEGIN IMMEDIATE");
}

WriteTransaction::~WriteTransaction() {
  if (!done_) sqlite3_exec(db_.handle(), "ROLLBACK", nullptr, nullptr, nullptr);
}

void WriteTransaction::commit() {
  db_.exec("COMMIT");
  done_ = true;
}

}  // namespace perfgate::baselines::sql

#pragma once
// Thin RAII over the SQLite C API: a connection, prepared statements, one write transaction.
// Every failure becomes a ToolError that names the store file.
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

struct sqlite3;
struct sqlite3_stmt;

namespace perfgate::baselines::sql {

class Database;

class Statement {
 public:
  Statement(Database& db, std::string_view sql);
  Statement(Statement&& other) noexcept;
  Statement& operator=(Statement&&) = delete;
  Statement(const Statement&) = delete;
  ~Statement();

  // Binders take 1-based positions, as SQLite does; nullopt binds NULL.
  Statement& bind(int pos, std::int64_t v);
  Statement& bind(int pos, double v);
  Statement& bind(int pos, std::string_view v);
  Statement& bind(int pos, const char* v) { return bind(pos, std::string_view(v)); }
  Statement& bind(int pos, const std::string& v) { return bind(pos, std::string_view(v)); }
  Statement& bind(int pos, const std::optional<std::string>& v);
  Statement& bind(int pos, const std::optional<double>& v);
  Statement& bind_blob(int pos, const void* data, std::size_t bytes);
  Statement& bind_null(int pos);

  bool step();   // true: a row is ready; false: done
  void run();    // steps to completion (for writes)
  void reset();  // ready for new bindings

  bool is_null(int col) const;
  std::int64_t int64(int col) const;
  double real(int col) const;
  std::string text(int col) const;
  std::optional<double> optional_real(int col) const;
  std::vector<unsigned char> blob(int col) const;
  std::pair<const void*, std::size_t> blob_view(int col) const;

 private:
  Database& db_;
  sqlite3_stmt* stmt_ = nullptr;
};

// A cached statement borrowed for one use: reset (locks released, bindings cleared) when it
// goes out of scope, so no half-read statement keeps an old snapshot open.
class Query {
 public:
  explicit Query(Statement& s) : s_(s) {}
  Query(const Query&) = delete;
  Query& operator=(const Query&) = delete;
  ~Query() { s_.reset(); }
  Statement* operator->() { return &s_; }
  Statement& operator*() { return s_; }

 private:
  Statement& s_;
};

class Database {
 public:
  // Throws ToolError naming `path` when SQLite cannot open it with `flags` (SQLITE_OPEN_*).
  Database(const std::string& path, int flags);
  Database(const Database&) = delete;
  Database& operator=(const Database&) = delete;
  ~Database();

  void exec(const std::string& sql);  // one or more statements, no results
  // Cached prepared statement, ready to bind; reset again when the Query dies.
  Query query(const std::string& sql);
  std::int64_t last_insert_rowid() const;
  int changes() const;
  [[noreturn]] void fail(const std::string& what) const;  // ToolError with SQLite's message

  sqlite3* handle() const { return db_; }
  const std::string& path() const { return path_; }

 private:
  sqlite3* db_ = nullptr;
  std::string path_;
  std::unordered_map<std::string, Statement> cache_;
};

// BEGIN IMMEDIATE on construction (takes the write lock now, so a busy store waits here, not
// halfway through); rolls back on destruction unless commit() ran.
class WriteTransaction {
 public:
  explicit WriteTransaction(Database& db);
  WriteTransaction(const WriteTransaction&) = delete;
  WriteTransaction& operator=(const WriteTransaction&) = delete;
  ~WriteTransaction();
  void commit();

 private:
  Database& db_;
  bool done_ = false;
};

}  // namespace perfgate::baselines::sql

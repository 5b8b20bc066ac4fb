// SqlConnection on SQLite: the embedded default catalog database.
#include <sqlite3.h>

#include <memory>

#include "catalog/sql_connection.h"

namespace floe::catalog {
namespace {

constexpr int kBusyTimeoutMillis = 10'000;

class SqliteConnection final : public SqlConnection {
 public:
  SqliteConnection(sqlite3* db, std::string path) : db_(db), path_(std::move(path)) {}
  ~SqliteConnection() override { sqlite3_close_v2(db_); }

  Result<int64_t> Execute(std::string_view sql, const std::vector<SqlValue>& params) override {
    FLOE_RETURN_IF_ERROR(Run(sql, params, nullptr));
    return static_cast<int64_t>(sqlite3_changes(db_));
  }

  Result<std::vector<SqlRow>> Query(std::string_view sql, const std::vector<SqlValue>& params) override {
    std::vector<SqlRow> rows;
    FLOE_RETURN_IF_ERROR(Run(sql, params, &rows));
    return rows;
  }

  Status BeginWrite() override { return Run("BEGIN IMMEDIATE", {}, nullptr); }
  Status Commit() override { return Run("COMMIT", {}, nullptr); }
  Status Rollback() override { return Run("ROLLBACK", {}, nullptr); }

 private:
  Status Fail(int code, std::string_view sql) {
    std::string message = sqlite3_errmsg(db_);
    int primary = code & 0xFF;
    if (code == SQLITE_CONSTRAINT_PRIMARYKEY || code == SQLITE_CONSTRAINT_UNIQUE) {
      return AlreadyExists("sqlite {}: {}", path_, message);
    }
    if (primary == SQLITE_BUSY || primary == SQLITE_LOCKED) {
      return Unavailable("sqlite {}: database is busy: {}", path_, message);
    }
    return IoError("sqlite {}: {} (in: {})", path_, message, sql);
  }

  Status Run(std::string_view sql, const std::vector<SqlValue>& params, std::vector<SqlRow>* rows) {
    sqlite3_stmt* raw = nullptr;
    int rc = sqlite3_prepare_v2(db_, sql.data(), static_cast<int>(sql.size()), &raw, nullptr);
    if (rc != SQLITE_OK) {
      return Fail(rc, sql);
    }
    std::unique_ptr<sqlite3_stmt, int (*)(sqlite3_stmt*)> statement(raw, sqlite3_finalize);
    for (size_t i = 0; i < params.size(); ++i) {
      int index = static_cast<int>(i) + 1;
      rc = params[i] ? sqlite3_bind_text(raw, index, params[i]->data(), static_cast<int>(params[i]->size()),
                                         SQLITE_TRANSIENT)
                     : sqlite3_bind_null(raw, index);
      if (rc != SQLITE_OK) {
        return Fail(rc, sql);
      }
    }
    while (true) {
      rc = sqlite3_step(raw);
      if (rc == SQLITE_DONE) {
        return OkStatus();
      }
      if (rc != SQLITE_ROW) {
        return Fail(sqlite3_extended_errcode(db_), sql);
      }
      if (rows != nullptr) {
        SqlRow row;
        int columns = sqlite3_column_count(raw);
        for (int c = 0; c < columns; ++c) {
          if (sqlite3_column_type(raw, c) == SQLITE_NULL) {
            row.emplace_back(std::nullopt);
          } else {
            const auto* text = reinterpret_cast<const char*>(sqlite3_column_text(raw, c));
            row.emplace_back(std::string(text, static_cast<size_t>(sqlite3_column_bytes(raw, c))));
          }
        }
        rows->push_back(std::move(row));
      }
    }
  }

  sqlite3* db_;
  std::string path_;
};

}  // namespace

Result<std::unique_ptr<SqlConnection>> OpenSqlite(const std::string& path) {
  sqlite3* db = nullptr;
  int rc = sqlite3_open_v2(path.c_str(), &db, SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE | SQLITE_OPEN_NOMUTEX,
                           nullptr);
  if (rc != SQLITE_OK) {
    std::string message = db != nullptr ? sqlite3_errmsg(db) : sqlite3_errstr(rc);
    sqlite3_close_v2(db);
    return IoError("opening sqlite catalog {}: {}", path, message);
  }
  sqlite3_extended_result_codes(db, 1);
  sqlite3_busy_timeout(db, kBusyTimeoutMillis);
  auto connection = std::make_unique<SqliteConnection>(db, path);
  // WAL lets readers (loads, lists) run beside the one writer; FULL sync makes an acknowledged
  // commit survive a power cut, which is the catalog's whole job.
  FLOE_ASSIGN_OR_RETURN(auto mode, connection->Query("PRAGMA journal_mode=WAL", {}));
  (void)mode;
  FLOE_RETURN_IF_ERROR(connection->Execute("PRAGMA synchronous=FULL", {}));
  return std::unique_ptr<SqlConnection>(std::move(connection));
}

}  // namespace floe::catalog

// SqlConnection: the little the SQL catalog needs of a database (parameterised statements with
// text values, explicit transactions), so the same catalog SQL runs on SQLite and PostgreSQL.
// Statements use '?' placeholders; the PostgreSQL connection numbers them. Errors: a unique-key
// violation is AlreadyExists, a lock or serialization failure Conflict or Unavailable, the rest
// Io. A connection is used by one thread at a time; SqlConnectionPool hands them out.
#pragma once

#include <functional>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "base/result.h"

namespace floe::catalog {

using SqlValue = std::optional<std::string>;  // nullopt is SQL NULL.
using SqlRow = std::vector<SqlValue>;

class SqlConnection {
 public:
  virtual ~SqlConnection() = default;
  // Runs a statement; returns the number of rows it changed.
  virtual Result<int64_t> Execute(std::string_view sql, const std::vector<SqlValue>& params = {}) = 0;
  virtual Result<std::vector<SqlRow>> Query(std::string_view sql, const std::vector<SqlValue>& params = {}) = 0;
  // A transaction that will write: SQLite takes the write lock up front (BEGIN IMMEDIATE) so two
  // writers never deadlock upgrading read locks.
  virtual Status BeginWrite() = 0;
  virtual Status Commit() = 0;
  virtual Status Rollback() = 0;
};

// Hands connections to threads and takes them back; opens new ones on demand with `connect`.
// Thread-safe.
class SqlConnectionPool {
 public:
  using Connect = std::function<Result<std::unique_ptr<SqlConnection>>()>;
  explicit SqlConnectionPool(Connect connect, size_t max_idle = 16)
      : connect_(std::move(connect)), max_idle_(max_idle) {}

  // A borrowed connection, returned to the pool on destruction unless it failed.
  class Lease {
   public:
    Lease(SqlConnectionPool* pool, std::unique_ptr<SqlConnection> connection)
        : pool_(pool), connection_(std::move(connection)) {}
    Lease(Lease&&) = default;
    ~Lease() {
      if (connection_ != nullptr && !broken_) {
        pool_->Return(std::move(connection_));
      }
    }
    SqlConnection* operator->() { return connection_.get(); }
    SqlConnection& operator*() { return *connection_; }
    // Drops the connection instead of returning it (after a transport error).
    void MarkBroken() { broken_ = true; }

   private:
    SqlConnectionPool* pool_;
    std::unique_ptr<SqlConnection> connection_;
    bool broken_ = false;
  };

  Result<Lease> Acquire() {
    {
      std::lock_guard lock(mu_);
      if (!idle_.empty()) {
        auto connection = std::move(idle_.back());
        idle_.pop_back();
        return Lease(this, std::move(connection));
      }
    }
    FLOE_ASSIGN_OR_RETURN(auto connection, connect_());
    return Lease(this, std::move(connection));
  }

 private:
  void Return(std::unique_ptr<SqlConnection> connection) {
    std::lock_guard lock(mu_);
    if (idle_.size() < max_idle_) {
      idle_.push_back(std::move(connection));
    }
  }

  Connect connect_;
  size_t max_idle_;
  std::mutex mu_;
  std::vector<std::unique_ptr<SqlConnection>> idle_;  // Guarded by mu_.
};

// Opens a SQLite database file (created when missing) in WAL mode with a busy timeout.
Result<std::unique_ptr<SqlConnection>> OpenSqlite(const std::string& path);
// Connects to PostgreSQL with a libpq connection string or URI ("postgresql://u@h:p/db").
Result<std::unique_ptr<SqlConnection>> OpenPostgres(const std::string& conninfo);
// InvalidArgument when libpq cannot parse `conninfo` (a malformed URI, an unknown parameter),
// with libpq's reason; nothing is connected to.
Status CheckPostgresConninfo(const std::string& conninfo);

}  // namespace floe::catalog

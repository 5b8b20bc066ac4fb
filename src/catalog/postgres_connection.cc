// SqlConnection on PostgreSQL (libpq): the catalog database several `floe catalog` processes
// can share.
#include <libpq-fe.h>

#include <memory>

#include "catalog/sql_connection.h"

namespace floe::catalog {
namespace {

// "a = ? AND b = ?" → "a = $1 AND b = $2" (the catalog's SQL has no '?' inside literals).
std::string NumberPlaceholders(std::string_view sql) {
  std::string out;
  out.reserve(sql.size() + 8);
  int n = 0;
  for (char c : sql) {
    if (c == '?') {
      out += '$';
      out += std::to_string(++n);
    } else {
      out += c;
    }
  }
  return out;
}

class PostgresConnection final : public SqlConnection {
 public:
  explicit PostgresConnection(PGconn* conn) : conn_(conn) {}
  ~PostgresConnection() override { PQfinish(conn_); }

  Result<int64_t> Execute(std::string_view sql, const std::vector<SqlValue>& params) override {
    FLOE_ASSIGN_OR_RETURN(auto result, Run(sql, params));
    const char* tuples = PQcmdTuples(result.get());
    return tuples != nullptr && *tuples != '\0' ? std::stoll(tuples) : int64_t{0};
  }

  Result<std::vector<SqlRow>> Query(std::string_view sql, const std::vector<SqlValue>& params) override {
    FLOE_ASSIGN_OR_RETURN(auto result, Run(sql, params));
    std::vector<SqlRow> rows;
    int count = PQntuples(result.get());
    int columns = PQnfields(result.get());
    for (int r = 0; r < count; ++r) {
      SqlRow row;
      for (int c = 0; c < columns; ++c) {
        if (PQgetisnull(result.get(), r, c)) {
          row.emplace_back(std::nullopt);
        } else {
          row.emplace_back(std::string(PQgetvalue(result.get(), r, c), PQgetlength(result.get(), r, c)));
        }
      }
      rows.push_back(std::move(row));
    }
    return rows;
  }

  Status BeginWrite() override { return Discard(Run("BEGIN", {})); }
  Status Commit() override { return Discard(Run("COMMIT", {})); }
  Status Rollback() override { return Discard(Run("ROLLBACK", {})); }

 private:
  using ResultPtr = std::unique_ptr<PGresult, void (*)(PGresult*)>;

  static Status Discard(Result<ResultPtr> result) {
    if (!result) {
      return std::unexpected(std::move(result).error());
    }
    return OkStatus();
  }

  
  Result<ResultPtr> Run(std::string_view sql, const std::vector<SqlValue>& params) {
    std::string text = NumberPlaceholders(sql);
    std::vector<const char*> values;
    values.reserve(params.size());
    for (const SqlValue& param : params) {
      values.push_back(param ? param->c_str() : nullptr);
    }
    ResultPtr result(PQexecParams(conn_, text.c_str(), static_cast<int>(values.size()), nullptr, values.data(),
                                  nullptr, nullptr, 0),
                     PQclear);
    ExecStatusType status = result ? PQresultStatus(result.get()) : PGRES_FATAL_ERROR;
    if (status == PGRES_COMMAND_OK || status == PGRES_TUPLES_OK) {
      return result;
    }
    std::string message = PQerrorMessage(conn_);
    while (!message.empty() && (message.back() == '\n' || message.back() == ' ')) {
      message.pop_back();
    }
    const char* state = result ? PQresultErrorField(result.get(), PG_DIAG_SQLSTATE) : nullptr;
    std::string sqlstate = state != nullptr ? state : "";
    if (sqlstate == "23505") {
      return std::unexpected(Error(ErrorKind::kAlreadyExists, "postgresql: " + message));
    }
    if (sqlstate == "40001" || sqlstate == "40P01") {
      return std::unexpected(Error(ErrorKind::kConflict, "postgresql: " + message));
    }
    if (PQstatus(conn_) != CONNECTION_OK || sqlstate.starts_with("08") || sqlstate.starts_with("57")) {
      return std::unexpected(Error(ErrorKind::kUnavailable, "postgresql: " + message));
    }
    return std::unexpected(Error(ErrorKind::kIo, fmt::format("postgresql: {} (in: {})", message, sql)));
  }

  PGconn* conn_;
};

}  // namespace

Result<std::unique_ptr<SqlConnection>> OpenPostgres(const std::string& conninfo) {
  PGconn* conn = PQconnectdb(conninfo.c_str());
  if (conn == nullptr || PQstatus(conn) != CONNECTION_OK) {
    std::string message = conn != nullptr ? PQerrorMessage(conn) : "out of memory";
    PQfinish(conn);
    while (!message.empty() && message.back() == '\n') {
      message.pop_back();
    }
    return Unavailable("connecting to postgresql: {}", message);
  }
  // Notices ("relation already exists, skipping") are not errors; keep them off stderr.
  PQsetNoticeProcessor(conn, [](void*, const char*) {}, nullptr);
  return std::unique_ptr<SqlConnection>(std::make_unique<PostgresConnection>(conn));
}

Status CheckPostgresConninfo(const std::string& conninfo) {
  char* error = nullptr;
  PQconninfoOption* options = PQconninfoParse(conninfo.c_str(), &error);
  if (options == nullptr) {
    std::string message = error != nullptr ? error : "out of memory";
    PQfreemem(error);
    while (!message.empty() && message.back() == '\n') {
      message.pop_back();
    }
    return InvalidArgument("{}", message);
  }
  PQconninfoFree(options);
  return OkStatus();
}

}  // namespace floe::catalog

// A failed query as the protocols report it: Trino's error name, code and type, PostgreSQL's
// SQLSTATE, and the position in the SQL text (line and column for Trino, a 1-based character
// offset for PostgreSQL). Built from the engine's Error by its code and kind, never its text, so
// every protocol reports the same failure the same way. Plain value; any thread.
#pragma once

#include <optional>
#include <string>
#include <string_view>

#include "base/result.h"

namespace floe::serve {

struct QueryError {
  std::string message;
  std::string name = "GENERIC_INTERNAL_ERROR";  // Trino's StandardErrorCode name.
  int code = 65536;
  std::string type = "INTERNAL_ERROR";  // USER_ERROR | INTERNAL_ERROR | INSUFFICIENT_RESOURCES
  std::string sqlstate = "XX000";
  std::optional<int> line;    // 1-based.
  std::optional<int> column;  // 1-based, in characters.
  std::optional<int> position;  // 1-based character offset into the query text (PostgreSQL).

  // Classifies `error` raised by `sql` (used to turn the line and column into an offset).
  static QueryError From(const Error& error, std::string_view sql);
  static QueryError Canceled();
  static QueryError Abandoned(int64_t after_millis);  // The client stopped polling.
  static QueryError TimeLimit(int64_t limit_millis);
  static QueryError MemoryLimit(int64_t limit_bytes);
  static QueryError QueueFull(int queued);
};

}  // namespace floe::serve

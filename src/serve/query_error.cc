#include "serve/query_error.h"

#include <fmt/format.h>

namespace floe::serve {
namespace {

struct Classification {
  const char* name;
  int code;
  const char* type;
  const char* sqlstate;
};

Classification Classify(const Error& error) {
  switch (error.code()) {
    case ErrorCode::kSyntaxError: return {"SYNTAX_ERROR", 1, "USER_ERROR", "42601"};
    case ErrorCode::kNoSuchColumn: return {"COLUMN_NOT_FOUND", 47, "USER_ERROR", "42703"};
    case ErrorCode::kNoSuchTable: return {"TABLE_NOT_FOUND", 46, "USER_ERROR", "42P01"};
    case ErrorCode::kNoSuchView: return {"TABLE_NOT_FOUND", 46, "USER_ERROR", "42P01"};
    case ErrorCode::kNoSuchNamespace: return {"SCHEMA_NOT_FOUND", 45, "USER_ERROR", "3F000"};
    case ErrorCode::kNoSuchCatalog: return {"CATALOG_NOT_FOUND", 44, "USER_ERROR", "3D000"};
    case ErrorCode::kNoSuchFunction: return {"FUNCTION_NOT_FOUND", 6, "USER_ERROR", "42883"};
    case ErrorCode::kDivisionByZero: return {"DIVISION_BY_ZERO", 8, "USER_ERROR", "22012"};
    case ErrorCode::kTypeMismatch: return {"TYPE_MISMATCH", 58, "USER_ERROR", "42804"};
    case ErrorCode::kNamespaceNotEmpty: return {"SCHEMA_NOT_EMPTY", 34, "USER_ERROR", "2BP01"};
    case ErrorCode::kInvalidParameterValue:
      return {"INVALID_SESSION_PROPERTY", 14, "USER_ERROR", "22023"};
    case ErrorCode::kMergeTargetRowMultipleMatches:
      return {"GENERIC_USER_ERROR", 0, "USER_ERROR", "21000"};
    case ErrorCode::kInvalidCatalogBackend:
    case ErrorCode::kCatalogStoreUnreachable:
    case ErrorCode::kCatalogStoreConflict:
    case ErrorCode::kUnspecified: break;
  }
  switch (error.kind()) {
    case ErrorKind::kInvalidArgument: return {"GENERIC_USER_ERROR", 0, "USER_ERROR", "42000"};
    case ErrorKind::kNotFound: return {"NOT_FOUND", 5, "USER_ERROR", "42704"};
    case ErrorKind::kAlreadyExists: return {"ALREADY_EXISTS", 12, "USER_ERROR", "42P07"};
    case ErrorKind::kNotImplemented: return {"NOT_SUPPORTED", 13, "USER_ERROR", "0A000"};
    case ErrorKind::kConflict: return {"TRANSACTION_CONFLICT", 17, "USER_ERROR", "40001"};
    case ErrorKind::kPermissionDenied:
    case ErrorKind::kUnauthenticated: return {"PERMISSION_DENIED", 4, "USER_ERROR", "42501"};
    case ErrorKind::kResourceExhausted:
      return {"EXCEEDED_LOCAL_MEMORY_LIMIT", 131079, "INSUFFICIENT_RESOURCES", "53200"};
    case ErrorKind::kUnavailable:
    case ErrorKind::kIo: return {"GENERIC_INTERNAL_ERROR", 65536, "EXTERNAL", "58030"};
    case ErrorKind::kCorruption: return {"GENERIC_INTERNAL_ERROR", 65536, "INTERNAL_ERROR", "XX001"};
    case ErrorKind::kInternal: break;
  }
  return {"GENERIC_INTERNAL_ERROR", 65536, "INTERNAL_ERROR", "XX000"};
}

// The 1-based character offset of (line, column) in `text`.
int CharacterOffset(std::string_view text, int line, int column) {
  int current_line = 1;
  int characters = 0;
  size_t i = 0;
  for (; i < text.size() && current_line < line; ++i) {
    if ((static_cast<unsigned char>(text[i]) & 0xC0) != 0x80) ++characters;
    if (text[i] == '\n') ++current_line;
  }
  return characters + column;
}

}  // namespace

QueryError QueryError::From(const Error& error, std::string_view sql) {
  Classification c = Classify(error);
  QueryError out;
  out.message = error.message();
  out.name = c.name;
  out.code = c.code;
  out.type = c.type;
  out.sqlstate = c.sqlstate;
  if (const auto& p = error.position()) {
    out.line = p->line;
    out.column = p->column;
    out.position = CharacterOffset(sql, p->line, p->column);
  }
  return out;
}

QueryError QueryError::Canceled() {
  QueryError out;
  out.message = "Query was canceled";
  out.name = "USER_CANCELED";
  out.code = 3;
  out.type = "USER_ERROR";
  out.sqlstate = "57014";
  return out;
}

QueryError QueryError::Abandoned(int64_t after_millis) {
  QueryError out;
  out.message = fmt::format("Query was abandoned: its client did not poll for {} ms", after_millis);
  out.name = "ABANDONED_QUERY";
  out.code = 2;
  out.type = "USER_ERROR";
  out.sqlstate = "57014";
  return out;
}

QueryError QueryError::TimeLimit(int64_t limit_millis) {
  QueryError out;
  out.message = fmt::format("Query exceeded the maximum execution time limit of {} ms", limit_millis);
  out.name = "EXCEEDED_TIME_LIMIT";
  out.code = 131075;
  out.type = "INSUFFICIENT_RESOURCES";
  out.sqlstate = "57014";
  return out;
}

QueryError QueryError::MemoryLimit(int64_t limit_bytes) {
  QueryError out;
  out.message = fmt::format("Query exceeded the per-query memory limit of {} bytes", limit_bytes);
  out.name = "EXCEEDED_LOCAL_MEMORY_LIMIT";
  out.code = 131079;
  out.type = "INSUFFICIENT_RESOURCES";
  out.sqlstate = "53200";
  return out;
}

QueryError QueryError::QueueFull(int queued) {
  QueryError out;
  out.message = fmt::format("Too many queued queries ({}): try again later", queued);
  out.name = "QUERY_QUEUE_FULL";
  out.code = 131074;
  out.type = "INSUFFICIENT_RESOURCES";
  out.sqlstate = "53300";
  return out;
}

}  // namespace floe::serve

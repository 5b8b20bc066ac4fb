#include "base/result.h"

#include <cstring>

namespace floe {

std::string_view ErrorKindName(ErrorKind kind) {
  switch (kind) {
    case ErrorKind::kInvalidArgument: return "invalid argument";
    case ErrorKind::kNotFound: return "not found";
    case ErrorKind::kAlreadyExists: return "already exists";
    case ErrorKind::kConflict: return "conflict";
    case ErrorKind::kCorruption: return "corruption";
    case ErrorKind::kIo: return "I/O error";
    case ErrorKind::kUnavailable: return "unavailable";
    case ErrorKind::kUnauthenticated: return "unauthenticated";
    case ErrorKind::kPermissionDenied: return "permission denied";
    case ErrorKind::kResourceExhausted: return "resource exhausted";
    case ErrorKind::kNotImplemented: return "not implemented";
    case ErrorKind::kInternal: return "internal error";
  }
  return "unknown error";
}

ErrorKind ErrorCodeKind(ErrorCode code) {
  switch (code) {
    case ErrorCode::kUnspecified: return ErrorKind::kInternal;
    case ErrorCode::kNoSuchCatalog:
    case ErrorCode::kNoSuchNamespace:
    case ErrorCode::kNoSuchTable:
    case ErrorCode::kNoSuchView:
    case ErrorCode::kNoSuchColumn:
    case ErrorCode::kNoSuchFunction: return ErrorKind::kNotFound;
    case ErrorCode::kNamespaceNotEmpty:
    case ErrorCode::kCatalogStoreConflict:
      return ErrorKind::kConflict;
    case ErrorCode::kCatalogStoreUnreachable:
      return ErrorKind::kUnavailable;
    case ErrorCode::kSyntaxError:
    case ErrorCode::kTypeMismatch:
    case ErrorCode::kDivisionByZero:
    case ErrorCode::kInvalidParameterValue:
    case ErrorCode::kMergeTargetRowMultipleMatches:
    case ErrorCode::kInvalidCatalogBackend:
      return ErrorKind::kInvalidArgument;
  }
  return ErrorKind::kInternal;
}

std::string_view ErrorCodeName(ErrorCode code) {
  switch (code) {
    case ErrorCode::kUnspecified: return "";
    case ErrorCode::kNoSuchCatalog: return "no such catalog";
    case ErrorCode::kNoSuchNamespace: return "no such namespace";
    case ErrorCode::kNoSuchTable: return "no such table";
    case ErrorCode::kNoSuchView: return "no such view";
    case ErrorCode::kNoSuchColumn: return "no such column";
    case ErrorCode::kNoSuchFunction: return "no such function";
    case ErrorCode::kNamespaceNotEmpty: return "namespace not empty";
    case ErrorCode::kSyntaxError: return "syntax error";
    case ErrorCode::kTypeMismatch: return "type mismatch";
    case ErrorCode::kDivisionByZero: return "division by zero";
    case ErrorCode::kInvalidParameterValue:
      return "invalid parameter value";
    case ErrorCode::kMergeTargetRowMultipleMatches:
      return "merge target row multiple matches";
    case ErrorCode::kInvalidCatalogBackend:
      return "invalid catalog backend";
    case ErrorCode::kCatalogStoreUnreachable:
      return "catalog store unreachable";
    case ErrorCode::kCatalogStoreConflict:
      return "catalog store conflict";
  }
  return "";
}

std::string Error::ToString() const { return fmt::format("{}: {}", ErrorKindName(kind_), message_); }

std::unexpected<Error> ErrnoError(int errnum, std::string_view operation, std::string_view path) {
  ErrorKind kind = ErrorKind::kIo;
  if (errnum == ENOENT) kind = ErrorKind::kNotFound;
  if (errnum == EEXIST) kind = ErrorKind::kAlreadyExists;
  if (errnum == EACCES || errnum == EPERM) kind = ErrorKind::kPermissionDenied;
  if (errnum == ENOSPC || errnum == EDQUOT || errnum == EMFILE) kind = ErrorKind::kResourceExhausted;
  return std::unexpected<Error>(Error(kind, fmt::format("{} {}: {}", operation, path, std::strerror(errnum))));
}

}  // namespace floe

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

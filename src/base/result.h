// Result<T> and Status: floe's one error vocabulary.
//
// Every fallible function returns Result<T> (a value or an Error) or Status (nothing or an
// Error). Errors carry a kind that tells callers what to do about them (retry a Conflict,
// report a Corruption, ...) and a message that grows context as it propagates upwards:
// "reading manifest s3://b/m.avro: block 3: truncated varint". Where callers or protocols
// must tell errors of one kind apart, the error also carries a domain code (base/error_code.h)
// and, for errors in a user's text (SQL), the position they point at: both survive added
// context, and nothing ever classifies an error by its message. Exceptions never cross a module
// or thread boundary; code that calls a throwing library converts at that boundary.
#pragma once

#include <expected>
#include <optional>
#include <string>
#include <string_view>
#include <utility>

#include <fmt/format.h>

#include "base/error_code.h"

namespace floe {

// What went wrong, phrased as what the caller can do about it.
enum class ErrorKind {
  kInvalidArgument,    // The caller's input is wrong; retrying the same call fails again.
  kNotFound,           // The named thing does not exist.
  kAlreadyExists,      // The named thing exists and the call required that it not.
  kConflict,           // A concurrent change won; reload and retry.
  kCorruption,         // Bytes from storage or the wire violate their format.
  kIo,                 // The operating system or a store failed an operation.
  kUnavailable,        // A peer or resource is temporarily unreachable; retry later.
  kUnauthenticated,    // Credentials are missing or were refused.
  kPermissionDenied,   // Credentials are valid but not allowed to do this.
  kResourceExhausted,  // A limit (memory, size, connections, disk) was reached.
  kNotImplemented,     // A valid request that floe does not support (yet).
  kInternal,           // A bug in floe.
};

std::string_view ErrorKindName(ErrorKind kind);

// A place in a user's text: 1-based line, and 1-based column counted in characters (not
// UTF-8 bytes), as Trino's errorLocation and PostgreSQL's error position count them.
struct TextPosition {
  int line = 1;
  int column = 1;
};

// An error value: a kind plus a human-readable message naming what and where, optionally a
// domain code and a position in the user's text.
class [[nodiscard]] Error {
 public:
  Error(ErrorKind kind, std::string message, ErrorCode code = ErrorCode::kUnspecified)
      : kind_(kind), code_(code), message_(std::move(message)) {}

  ErrorKind kind() const { return kind_; }
  ErrorCode code() const { return code_; }
  const std::string& message() const { return message_; }
  // Where in the user's text the error points, when it came from that text.
  const std::optional<TextPosition>& position() const { return position_; }

  Error WithCode(ErrorCode code) && {
    code_ = code;
    return std::move(*this);
  }
  Error WithPosition(TextPosition position) && {
    position_ = position;
    return std::move(*this);
  }

  // Prefixes the message with where the error passed through: "context: message".
  Error WithContext(std::string_view context) && {
    message_ = fmt::format("{}: {}", context, message_);
    return std::move(*this);
  }
  Error WithContext(std::string_view context) const& { return Error(*this).WithContext(context); }

  // "corruption: reading manifest m.avro: truncated varint"
  std::string ToString() const;

  bool IsRetryable() const { return kind_ == ErrorKind::kConflict || kind_ == ErrorKind::kUnavailable; }

 private:
  ErrorKind kind_;
  ErrorCode code_;
  std::string message_;
  std::optional<TextPosition> position_;
};

template <typename T>
using Result = std::expected<T, Error>;
using Status = Result<void>;

inline Status OkStatus() { return {}; }

// Builders: return Unexpected<...>(...) wherever a Result<T> or Status is expected.
template <typename... Args>
std::unexpected<Error> MakeError(ErrorKind kind, fmt::format_string<Args...> format, Args&&... args) {
  return std::unexpected<Error>(Error(kind, fmt::format(format, std::forward<Args>(args)...)));
}

// An error with a domain code, of the code's usual kind: CodedError(ErrorCode::kNoSuchTable,
// "no such table: {}", name).
template <typename... Args>
std::unexpected<Error> CodedError(ErrorCode code, fmt::format_string<Args...> format, Args&&... args) {
  return std::unexpected<Error>(Error(ErrorCodeKind(code), fmt::format(format, std::forward<Args>(args)...), code));
}

#define FLOE_DEFINE_ERROR_BUILDER(Name, Kind)                                              \
  template <typename... Args>                                                              \
  std::unexpected<Error> Name(fmt::format_string<Args...> format, Args&&... args) {        \
    return MakeError(ErrorKind::Kind, format, std::forward<Args>(args)...);                \
  }
FLOE_DEFINE_ERROR_BUILDER(InvalidArgument, kInvalidArgument)
FLOE_DEFINE_ERROR_BUILDER(NotFound, kNotFound)
FLOE_DEFINE_ERROR_BUILDER(AlreadyExists, kAlreadyExists)
FLOE_DEFINE_ERROR_BUILDER(Conflict, kConflict)
FLOE_DEFINE_ERROR_BUILDER(Corruption, kCorruption)
FLOE_DEFINE_ERROR_BUILDER(IoError, kIo)
FLOE_DEFINE_ERROR_BUILDER(Unavailable, kUnavailable)
FLOE_DEFINE_ERROR_BUILDER(Unauthenticated, kUnauthenticated)
FLOE_DEFINE_ERROR_BUILDER(PermissionDenied, kPermissionDenied)
FLOE_DEFINE_ERROR_BUILDER(ResourceExhausted, kResourceExhausted)
FLOE_DEFINE_ERROR_BUILDER(NotImplemented, kNotImplemented)
FLOE_DEFINE_ERROR_BUILDER(Internal, kInternal)
#undef FLOE_DEFINE_ERROR_BUILDER

// An I/O error from errno, naming the operation and the path: "open /x/y: No such file".
std::unexpected<Error> ErrnoError(int errnum, std::string_view operation, std::string_view path);

}  // namespace floe

// Propagation. Each macro expands to several statements: always use it inside braces.
#define FLOE_CONCAT_INNER(a, b) a##b
#define FLOE_CONCAT(a, b) FLOE_CONCAT_INNER(a, b)

// Returns the error of `expr` (a Status or Result) from the enclosing function.
#define FLOE_RETURN_IF_ERROR(expr)                                      \
  do {                                                                  \
    auto&& floe_status_ = (expr);                                       \
    if (!floe_status_.has_value()) {                                    \
      return std::unexpected<::floe::Error>(std::move(floe_status_).error()); \
    }                                                                   \
  } while (false)

// As FLOE_RETURN_IF_ERROR, adding `context` (a string expression) to the message.
#define FLOE_RETURN_IF_ERROR_CTX(expr, context)                                           \
  do {                                                                                    \
    auto&& floe_status_ = (expr);                                                         \
    if (!floe_status_.has_value()) {                                                      \
      return std::unexpected<::floe::Error>(std::move(floe_status_).error().WithContext(context)); \
    }                                                                                     \
  } while (false)

#define FLOE_ASSIGN_OR_RETURN_IMPL(tmp, lhs, expr)                   \
  auto tmp = (expr);                                                 \
  if (!tmp.has_value()) {                                            \
    return std::unexpected<::floe::Error>(std::move(tmp).error());   \
  }                                                                  \
  lhs = std::move(tmp).value()

// `FLOE_ASSIGN_OR_RETURN(auto x, MakeX());` assigns the value or returns the error.
#define FLOE_ASSIGN_OR_RETURN(lhs, expr) \
  FLOE_ASSIGN_OR_RETURN_IMPL(FLOE_CONCAT(floe_result_, __LINE__), lhs, expr)

#define FLOE_ASSIGN_OR_RETURN_CTX_IMPL(tmp, lhs, expr, context)                              \
  auto tmp = (expr);                                                                         \
  if (!tmp.has_value()) {                                                                    \
    return std::unexpected<::floe::Error>(std::move(tmp).error().WithContext(context));      \
  }                                                                                          \
  lhs = std::move(tmp).value()

#define FLOE_ASSIGN_OR_RETURN_CTX(lhs, expr, context) \
  FLOE_ASSIGN_OR_RETURN_CTX_IMPL(FLOE_CONCAT(floe_result_, __LINE__), lhs, expr, context)

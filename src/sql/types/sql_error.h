// Errors that point into the user's SQL text. The position travels in the Error itself
// (Error::position, for the Trino protocol's errorLocation and PostgreSQL's position field); the
// message also takes Trino's form, "line 3:14: Column 'x' cannot be resolved", which is what
// clients show. Lines and columns are 1-based; columns count UTF-8 characters, not bytes.
#pragma once

#include <string_view>

#include "base/result.h"

namespace floe::sql {

// The position of byte `offset` in `text` (clamped to the text).
TextPosition PositionOf(std::string_view text, int offset);

// An error of `kind` and `code` pointing at byte `offset` of `text` (position set, message
// "line L:C: message"), or just the message when offset < 0.
std::unexpected<Error> SqlError(ErrorKind kind, std::string_view text, int offset, std::string_view message,
                                ErrorCode code = ErrorCode::kUnspecified);

// `error` (kind and code kept) pointed at byte `offset` of `text`, unless it points somewhere
// already or offset < 0.
Error PointAt(Error error, std::string_view text, int offset);

}  // namespace floe::sql

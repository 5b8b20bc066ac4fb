// Errors that point into the user's SQL text. Messages take Trino's form, "line 3:14: Column
// 'x' cannot be resolved", so clients (and the Trino protocol's errorLocation) can recover the
// position. Lines and columns are 1-based; columns count UTF-8 characters, not bytes.
#pragma once

#include <optional>
#include <string>
#include <string_view>

#include "base/result.h"

namespace floe::sql {

struct SourcePosition {
  int line = 1;
  int column = 1;
};

// The position of byte `offset` in `text` (clamped to the text).
SourcePosition PositionOf(std::string_view text, int offset);

// An error of `kind` whose message is "line L:C: message" for byte `offset` of `text`, or just
// the message when offset < 0.
std::unexpected<Error> SqlError(ErrorKind kind, std::string_view text, int offset, std::string_view message);

// The position a SqlError message starts with, if it has one.
std::optional<SourcePosition> ErrorPosition(const Error& error);

}  // namespace floe::sql

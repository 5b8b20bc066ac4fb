// JsonNestingDepth: how deeply a JSON text nests arrays and objects, found by one scan of the
// bytes before any parser sees them. JSON libraries copy, compare and dump values recursively,
// so a request body of a million '[' would overflow the stack of the process serving it (issue
// #27, finding 5): every place floe parses JSON from outside checks the text first, and refuses
// anything deeper than kMaxJsonDepth, which no Iceberg, Trino or console request comes near.
// Pure function; any thread.
#pragma once

#include <string_view>

#include "base/result.h"

namespace floe {

inline constexpr int kMaxJsonDepth = 64;

// The deepest nesting of '[' and '{' outside strings (0 for a scalar). Malformed text is
// measured as far as it goes; the parser reports what is wrong with it.
int JsonNestingDepth(std::string_view text);

// InvalidArgument when `text` nests deeper than `max_depth`.
Status CheckJsonDepth(std::string_view text, int max_depth = kMaxJsonDepth);

}  // namespace floe

// Bound parameters as SQL literals: the engine takes statement text, so a statement's `$n` and
// `?` placeholders are replaced by the literal text of the values bound to them (PostgreSQL's
// Bind, Trino's EXECUTE ... USING). Working on tokens, placeholders inside strings, quoted
// names and comments are left alone. Stateless; any thread.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "base/result.h"

namespace floe::serve {

// The highest $n, or the number of `?`, in `sql` (0 when there are none).
Result<int> CountParameters(std::string_view sql);

// Replaces `$n` with literals[n-1] and the k-th `?` with literals[k-1]. kInvalidArgument when
// a placeholder has no value.
Result<std::string> SubstituteParameters(std::string_view sql, const std::vector<std::string>& literals);

// A SQL literal for a parameter given as text with no declared type: numbers stay numbers,
// everything else becomes a quoted string. Null gives NULL.
std::string UntypedLiteral(const std::optional<std::string>& text);
// 'it''s'
std::string QuoteString(std::string_view text);

}  // namespace floe::serve

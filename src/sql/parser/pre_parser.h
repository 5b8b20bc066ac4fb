// The pre-parser: the Trino forms PostgreSQL's grammar rejects, handled on tokens before
// libpg_query sees the text (../shared/notes/query.md §5).
//   - Statement splitting on top-level ';'.
//   - `?` placeholders become `$n`; `try_cast(` becomes `CAST(` (remembered, so the cast is
//     marked as a try); `FOR VERSION|TIMESTAMP AS OF <value>` after a table name and
//     `PARTITIONED BY (...)` in CREATE TABLE are cut out and kept as token ranges.
// Whole-statement forms (SHOW ..., DESCRIBE, USE, ALTER TABLE ... EXECUTE) are recognized by
// the parser from the tokens directly. Stateless functions; any thread may call them.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "base/result.h"
#include "sql/parser/lexer.h"
#include "sql/parser/offset_map.h"

namespace floe::sql {

// A range of tokens [first, last) of one statement.
struct TokenRange {
  size_t first = 0;
  size_t last = 0;
  bool empty() const { return first >= last; }
};

// A time-travel clause cut out of the text.
struct CutTimeTravel {
  int name_offset;   // Rewritten offset of the table name's first token (RangeVar.location).
  bool version;      // FOR VERSION (true) or FOR TIMESTAMP (false).
  int for_offset;    // Original offset of FOR.
  TokenRange value;  // The value's tokens.
};

// Text for libpg_query with everything needed to map its tree back to the user's text.
struct RewrittenText {
  std::string text;
  OffsetMap offsets;
  std::vector<CutTimeTravel> time_travel;
  std::vector<int> try_cast_offsets;  // Rewritten offsets of CAST tokens written as try_cast.
  TokenRange partitioned_by;          // Inside the parentheses; empty when absent.
};

// Splits the tokens at top-level semicolons; empty statements are dropped.
std::vector<TokenRange> SplitStatements(const std::vector<Token>& tokens);

// Rewrites tokens `range` of `original` (with `prefix` prepended, e.g. "SELECT " to parse a
// lone expression). `parameter_count` numbers `?` placeholders across calls of one statement.
Result<RewrittenText> RewriteForPostgres(std::string_view original, const std::vector<Token>& tokens, TokenRange range,
                                         std::string_view prefix, int& parameter_count);

}  // namespace floe::sql

// Converts libpg_query's JSON parse tree into floe's AST (sql/ast_*.h). The JSON is treated as
// outside input: its nesting depth is bounded, every field is checked for its expected shape,
// and anything unexpected becomes an error naming the place in the user's text. Constructs
// PostgreSQL parses but floe does not support get kNotImplemented with their position.
// Stateless; any thread may call (the parser calls it on its large-stack thread).
#pragma once

#include <functional>
#include <string_view>
#include <vector>

#include "base/result.h"
#include "sql/parser/ast_statement.h"
#include "sql/parser/pre_parser.h"

namespace floe::sql {

// Most JSON nesting accepted: each expression level costs about two.
inline constexpr size_t kMaxParseTreeDepth = 2000;

struct TreeContext {
  std::string_view original;      // The user's whole SQL text.
  const RewrittenText* rewritten;  // What libpg_query parsed, and how to map it back.
  // Parses a token range of the original text as one expression (time-travel values).
  std::function<Result<ast::ExprPtr>(TokenRange)> parse_expression;
};

// The statements of one libpg_query parse.
Result<std::vector<ast::StatementPtr>> ReadPgParseTree(std::string_view json, const TreeContext& context);

}  // namespace floe::sql

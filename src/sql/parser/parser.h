// The SQL front end's entry point: text in, floe's AST out. Trino-only forms are handled by the
// pre-parser (sql/pre_parser.h); everything else goes through libpg_query's PostgreSQL grammar
// on a large-stack thread and is converted by sql/pg_tree_reader.h. Errors carry the line and
// column in the user's text. Any thread may call; calls are independent.
#pragma once

#include <string_view>
#include <vector>

#include "base/result.h"
#include "sql/parser/ast_statement.h"

namespace floe::sql {

// Parses every statement of `sql` (separated by ';'). Empty input gives no statements.
Result<std::vector<ast::StatementPtr>> Parse(std::string_view sql);

// Parses exactly one statement.
Result<ast::StatementPtr> ParseStatement(std::string_view sql);

// Parses a lone expression (as in `SELECT <expr>`).
Result<ast::ExprPtr> ParseExpression(std::string_view sql);

}  // namespace floe::sql

// The statements a Trino client sends that belong to the session rather than the engine:
// SET SESSION / RESET SESSION, PREPARE ... FROM, EXECUTE [IMMEDIATE] ... USING, DEALLOCATE
// PREPARE, START TRANSACTION / COMMIT / ROLLBACK (autocommit: accepted, nothing to do), plus
// version() and the other session functions. Changes land in the query's SessionState; the
// protocol turns them into X-Trino-Set-* / Clear-* / Added-Prepare / Deallocated-Prepare
// headers. Immutable; shared by concurrent queries.
#pragma once

#include <string>

#include "serve/statement_runner.h"

namespace floe::serve {

class TrinoStatements final : public StatementInterceptor {
 public:
  explicit TrinoStatements(std::string version) : version_(std::move(version)) {}
  Interception Intercept(std::string_view text, const std::vector<sql::Token>& tokens, SessionState& session) override;

 private:
  std::string version_;
};

// The text of tokens [first, last) of `text`.
std::string TokenText(std::string_view text, const std::vector<sql::Token>& tokens, size_t first, size_t last);
// Splits tokens [first, end) at top-level commas into the text of each part.
std::vector<std::string> SplitArguments(std::string_view text, const std::vector<sql::Token>& tokens, size_t first);
// 'it''s' -> it's; other tokens as written.
std::string UnquoteLiteral(std::string_view token_text);

}  // namespace floe::serve

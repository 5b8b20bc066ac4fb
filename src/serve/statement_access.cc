#include "serve/statement_access.h"

#include <algorithm>
#include <array>
#include <string_view>

namespace floe::serve {
namespace {

constexpr std::array<std::string_view, 5> kWriteKeywords = {"insert", "update", "delete", "merge", "truncate"};
constexpr std::array<std::string_view, 5> kAlterKeywords = {"create", "drop", "alter", "call", "into"};

template <size_t N>
bool In(const std::array<std::string_view, N>& set, const sql::Token& token) {
  return token.kind == sql::TokenKind::kIdentifier && std::find(set.begin(), set.end(), token.value) != set.end();
}

// Statements that only read or touch the session; EXECUTE's prepared text is checked again
// once it has been substituted.
constexpr std::array<std::string_view, 19> kReadLeaders = {
    "select", "with", "values", "table", "show", "describe", "desc", "explain", "set", "reset",
    "use", "begin", "start", "commit", "rollback", "end", "prepare", "execute", "deallocate"};

}  // namespace

auth::Access StatementAccess(const std::vector<sql::Token>& tokens) {
  if (tokens.empty()) return auth::Access::kRead;
  const sql::Token& first = tokens.front();
  if (In(kWriteKeywords, first)) return auth::Access::kWrite;
  if (!In(kReadLeaders, first)) return auth::Access::kAlter;
  // A reading form may wrap a writing one: take the strongest keyword anywhere in it. ("into"
  // after INSERT was handled above; after SELECT it creates a table.)
  auth::Access needed = auth::Access::kRead;
  for (size_t i = 1; i < tokens.size(); ++i) {
    if (In(kAlterKeywords, tokens[i])) {
      // INSERT INTO inside a WITH or EXPLAIN writes data; it does not create a table.
      bool insert_into = tokens[i].value == "into" && tokens[i - 1].IsKeyword("insert");
      needed = std::max(needed, insert_into ? auth::Access::kWrite : auth::Access::kAlter);
    } else if (In(kWriteKeywords, tokens[i])) {
      needed = std::max(needed, auth::Access::kWrite);
    }
  }
  return needed;
}

}  // namespace floe::serve

#include "serve/statement_access.h"

#include <algorithm>
#include <array>
#include <optional>
#include <string_view>

namespace floe::serve {
namespace {

constexpr std::array<std::string_view, 5> kWriteKeywords = {"insert", "update", "delete", "merge", "truncate"};

bool IsIdentifier(const sql::Token& token, std::string_view word) {
  return token.kind == sql::TokenKind::kIdentifier && token.value == word;
}

bool IsWriteKeyword(const sql::Token& token) {
  return token.kind == sql::TokenKind::kIdentifier &&
         std::find(kWriteKeywords.begin(), kWriteKeywords.end(), token.value) != kWriteKeywords.end();
}

// Statements that only read or touch the session; EXECUTE's prepared text is checked again
// once it has been substituted.
constexpr std::array<std::string_view, 19> kReadLeaders = {
    "select", "with", "values", "table", "show", "describe", "desc", "explain", "set", "reset",
    "use", "begin", "start", "commit", "rollback", "end", "prepare", "execute", "deallocate"};

// What a structural keyword anywhere in the statement needs, or nothing for other tokens.
std::optional<auth::Operation> StructuralOperation(const sql::Token& token) {
  if (IsIdentifier(token, "create")) return auth::Operation::kCreate;
  if (IsIdentifier(token, "drop")) return auth::Operation::kDelete;
  if (IsIdentifier(token, "alter") || IsIdentifier(token, "call")) return auth::Operation::kAlter;
  return std::nullopt;
}

}  // namespace

auth::Operation StatementOperation(const std::vector<sql::Token>& tokens) {
  if (tokens.empty()) return auth::Operation::kRead;
  const sql::Token& first = tokens.front();
  if (IsWriteKeyword(first)) return auth::Operation::kWrite;
  // ANALYZE writes statistics derived from the data, as a commit of data does (as a statement
  // of its own only: EXPLAIN ANALYZE reads).
  if (IsIdentifier(first, "analyze")) return auth::Operation::kWrite;
  if (auto structural = StructuralOperation(first)) return *structural;
  // SHOW statements only read, SHOW CREATE VIEW included.
  if (IsIdentifier(first, "show")) return auth::Operation::kRead;
  bool reading = first.kind == sql::TokenKind::kIdentifier &&
                 std::find(kReadLeaders.begin(), kReadLeaders.end(), first.value) != kReadLeaders.end();
  if (!reading) return auth::Operation::kAlter;  // Unknown: the strongest.
  // A reading form may wrap a writing one: take the strongest keyword anywhere in it.
  auth::Operation needed = auth::Operation::kRead;
  for (size_t i = 1; i < tokens.size(); ++i) {
    std::optional<auth::Operation> here;
    if (IsIdentifier(tokens[i], "into")) {
      // INSERT INTO inside a WITH or EXPLAIN writes data; after SELECT, INTO creates a table.
      here = tokens[i - 1].IsKeyword("insert") ? auth::Operation::kWrite : auth::Operation::kCreate;
    } else if (IsWriteKeyword(tokens[i])) {
      here = auth::Operation::kWrite;
    } else {
      here = StructuralOperation(tokens[i]);
    }
    if (here) needed = std::max(needed, *here);
  }
  return needed;
}

}  // namespace floe::serve

#include "serve/session_functions.h"

#include "serve/parameter_substitution.h"

namespace floe::serve {
namespace {

using sql::Token;
using sql::TokenKind;

bool IsSelectItemStart(const std::vector<Token>& tokens, size_t i) {
  if (i == 0) return false;
  const Token& before = tokens[i - 1];
  return before.kind == TokenKind::kComma || before.IsKeyword("select") || before.IsKeyword("distinct");
}

bool IsSelectItemEnd(const std::vector<Token>& tokens, size_t i) {
  if (i >= tokens.size()) return true;
  const Token& after = tokens[i];
  return after.kind == TokenKind::kComma || after.kind == TokenKind::kSemicolon || after.IsKeyword("from") ||
         after.IsKeyword("where") || after.IsKeyword("limit") || after.IsKeyword("order") || after.IsKeyword("union");
}

}  // namespace

std::optional<std::string> RewriteSessionFunctions(std::string_view text, const std::vector<Token>& tokens,
                                                   const SessionState& session, const SessionFunctionValues& values) {
  std::string out;
  int copied = 0;
  bool changed = false;
  for (size_t i = 0; i < tokens.size(); ++i) {
    if (tokens[i].kind != TokenKind::kIdentifier) continue;
    size_t start = i;
    size_t name_at = i;
    // An optional pg_catalog. qualifier.
    if (tokens[i].value == "pg_catalog" && i + 2 < tokens.size() && tokens[i + 1].kind == TokenKind::kDot &&
        tokens[i + 2].kind == TokenKind::kIdentifier) {
      name_at = i + 2;
    }
    // Not a column of a qualified name (t.version).
    if (start > 0 && tokens[start - 1].kind == TokenKind::kDot) continue;
    const std::string& name = tokens[name_at].value;
    bool call = name_at + 1 < tokens.size() && tokens[name_at + 1].kind == TokenKind::kLeftParen;
    size_t end = name_at + 1;  // One past the last token replaced.
    std::optional<std::string> literal;
    std::string column = name;
    if (call && name_at + 2 < tokens.size() && tokens[name_at + 2].kind == TokenKind::kRightParen) {
      end = name_at + 3;
      if (name == "version") literal = QuoteString(values.version);
      if (name == "current_schema") literal = QuoteString(session.schema);
      if (name == "current_database" || name == "current_catalog") literal = QuoteString(session.catalog);
      if (name == "pg_backend_pid") literal.emplace(1, '0');
    } else if (call && name == "current_setting" && name_at + 3 < tokens.size() &&
               tokens[name_at + 2].kind == TokenKind::kString && tokens[name_at + 3].kind == TokenKind::kRightParen &&
               values.setting) {
      end = name_at + 4;
      std::string_view quoted = tokens[name_at + 2].value;
      if (quoted.size() >= 2 && quoted.front() == '\'') {
        std::string setting(quoted.substr(1, quoted.size() - 2));
        if (auto value = values.setting(setting)) literal = QuoteString(*value);
      }
    } else if (!call && name_at == start) {
      if (name == "current_user" || name == "session_user" || name == "current_role") literal = QuoteString(session.user);
      if (name == "current_schema") literal = QuoteString(session.schema);
      if (name == "current_catalog") literal = QuoteString(session.catalog);
    }
    if (!literal.has_value()) continue;
    out.append(text.substr(copied, tokens[start].begin - copied));
    out.append(*literal);
    if (IsSelectItemStart(tokens, start) && IsSelectItemEnd(tokens, end)) {
      out.append(" AS \"");
      out.append(column);
      out.push_back('"');
    }
    copied = tokens[end - 1].end;
    changed = true;
    i = end - 1;
  }
  if (!changed) return std::nullopt;
  out.append(text.substr(copied));
  return out;
}

}  // namespace floe::serve

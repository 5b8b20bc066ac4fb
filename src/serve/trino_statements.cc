#include "serve/trino_statements.h"

#include "serve/parameter_substitution.h"
#include "serve/session_functions.h"
#include "serve/session_properties.h"

namespace floe::serve {
namespace {

using sql::Token;
using sql::TokenKind;

StatementOutcome Done(std::string verb, std::string message = "") {
  StatementOutcome outcome;
  outcome.verb = std::move(verb);
  outcome.result.message = std::move(message);
  return outcome;
}

}  // namespace

std::string TokenText(std::string_view text, const std::vector<Token>& tokens, size_t first, size_t last) {
  if (first >= last || last > tokens.size()) return "";
  return std::string(text.substr(tokens[first].begin, tokens[last - 1].end - tokens[first].begin));
}

std::vector<std::string> SplitArguments(std::string_view text, const std::vector<Token>& tokens, size_t first) {
  std::vector<std::string> parts;
  int depth = 0;
  size_t start = first;
  for (size_t i = first; i <= tokens.size(); ++i) {
    if (i < tokens.size()) {
      TokenKind kind = tokens[i].kind;
      if (kind == TokenKind::kLeftParen || kind == TokenKind::kLeftBracket) ++depth;
      if (kind == TokenKind::kRightParen || kind == TokenKind::kRightBracket) --depth;
      if (!(kind == TokenKind::kComma && depth == 0)) continue;
    }
    if (i > start) parts.push_back(TokenText(text, tokens, start, i));
    start = i + 1;
  }
  return parts;
}

std::string UnquoteLiteral(std::string_view token_text) {
  if (token_text.size() < 2 || token_text.front() != '\'' || token_text.back() != '\'') return std::string(token_text);
  std::string out;
  for (size_t i = 1; i + 1 < token_text.size(); ++i) {
    out.push_back(token_text[i]);
    if (token_text[i] == '\'' && i + 2 < token_text.size() && token_text[i + 1] == '\'') ++i;
  }
  return out;
}

Interception TrinoStatements::Intercept(std::string_view text, const std::vector<Token>& tokens, SessionState& session) {
  Interception result;
  auto keyword = [&](size_t i, std::string_view word) { return i < tokens.size() && tokens[i].IsKeyword(word); };
  auto name_at = [&](size_t i) -> std::string {
    if (i >= tokens.size()) return "";
    if (tokens[i].kind == TokenKind::kQuotedIdentifier) return tokens[i].value;
    return tokens[i].kind == TokenKind::kIdentifier ? tokens[i].value : "";
  };

  if (keyword(0, "set") && keyword(1, "session")) {
    // SET SESSION [catalog.]name = value
    size_t i = 2;
    std::string name = name_at(i++);
    while (i + 1 < tokens.size() && tokens[i].kind == TokenKind::kDot) {
      name += "." + name_at(i + 1);
      i += 2;
    }
    if (name.empty() || i >= tokens.size() || tokens[i].value != "=" || i + 1 >= tokens.size()) {
      result.answer = InvalidArgument("expected SET SESSION name = value");
      return result;
    }
    std::string value = UnquoteLiteral(TokenText(text, tokens, i + 1, tokens.size()));
    if (auto valid = CheckSessionProperty(name, value); !valid) {
      result.answer = std::unexpected(valid.error());
      return result;
    }
    session.properties[name] = std::move(value);
    result.answer = Done("SET SESSION");
    return result;
  }
  if (keyword(0, "reset") && keyword(1, "session")) {
    std::string name = TokenText(text, tokens, 2, tokens.size());
    session.properties.erase(name);
    result.answer = Done("RESET SESSION");
    return result;
  }
  if (keyword(0, "prepare") && keyword(2, "from")) {
    std::string name = name_at(1);
    session.prepared[name] = TokenText(text, tokens, 3, tokens.size());
    result.answer = Done("PREPARE");
    return result;
  }
  if (keyword(0, "deallocate") && keyword(1, "prepare")) {
    std::string name = name_at(2);
    if (session.prepared.erase(name) == 0) {
      result.answer = NotFound("Prepared statement not found: {}", name);
      return result;
    }
    result.answer = Done("DEALLOCATE");
    return result;
  }
  if (keyword(0, "execute")) {
    std::string statement;
    size_t i;
    if (keyword(1, "immediate") && tokens.size() > 2 && tokens[2].kind == TokenKind::kString) {
      statement = UnquoteLiteral(tokens[2].value);
      i = 3;
    } else {
      std::string name = name_at(1);
      auto it = session.prepared.find(name);
      if (it == session.prepared.end()) {
        result.answer = NotFound("Prepared statement not found: {}", name);
        return result;
      }
      statement = it->second;
      i = 2;
    }
    std::vector<std::string> literals;
    if (keyword(i, "using")) literals = SplitArguments(text, tokens, i + 1);
    auto substituted = SubstituteParameters(statement, literals);
    if (!substituted) {
      result.answer = std::unexpected(substituted.error());
      return result;
    }
    result.rewritten = std::move(*substituted);
    return result;
  }
  if ((keyword(0, "start") && keyword(1, "transaction")) || (keyword(0, "commit") || keyword(0, "rollback"))) {
    result.answer = Done(keyword(0, "start") ? "START TRANSACTION" : tokens[0].value == "commit" ? "COMMIT" : "ROLLBACK");
    return result;
  }
  SessionFunctionValues values{.version = version_, .setting = {}};
  result.rewritten = RewriteSessionFunctions(text, tokens, session, values);
  return result;
}

}  // namespace floe::serve

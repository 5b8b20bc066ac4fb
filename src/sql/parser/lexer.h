// A SQL tokenizer for the pre-parser: enough of PostgreSQL's lexical rules (quoted strings and
// identifiers, dollar quoting, nested comments, numbers, operators) to find statement
// boundaries and the Trino-only forms without being fooled by text inside literals. It also
// enforces the front end's size limits before libpg_query sees the text.
// Stateless functions; any thread may call them.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "base/result.h"

namespace floe::sql {

enum class TokenKind {
  kIdentifier,        // value: lower-cased
  kQuotedIdentifier,  // value: unquoted, case kept
  kString,            // value: the raw token text (with quotes and prefix)
  kNumber,
  kParameter,         // $1
  kQuestion,          // ? (a JDBC/Trino placeholder)
  kOperator,          // + - * / < > = <> :: => || ...
  kLeftParen,
  kRightParen,
  kLeftBracket,
  kRightBracket,
  kComma,
  kDot,
  kSemicolon,
  kColon,
};

struct Token {
  TokenKind kind;
  int begin;  // Byte offsets into the text: [begin, end).
  int end;
  std::string value;

  bool IsKeyword(std::string_view lower) const { return kind == TokenKind::kIdentifier && value == lower; }
};

// Limits that keep hostile text from exhausting the parser's stack or memory.
struct LexerLimits {
  size_t max_bytes = 16 << 20;   // Whole SQL text.
  size_t max_tokens = 200'000;   // Per call.
  int max_nesting = 200;         // Parentheses and brackets.
};

// Splits `text` into tokens. Errors (unterminated literal or comment, a limit exceeded) carry
// the line and column of the offending place.
Result<std::vector<Token>> Tokenize(std::string_view text, const LexerLimits& limits = {});

}  // namespace floe::sql

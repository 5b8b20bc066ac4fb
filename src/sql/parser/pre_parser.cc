#include "sql/parser/pre_parser.h"

#include <algorithm>
#include <array>

#include "sql/types/sql_error.h"

namespace floe::sql {
namespace {

bool IsNameToken(const Token& t) {
  return t.kind == TokenKind::kIdentifier || t.kind == TokenKind::kQuotedIdentifier;
}

// Keywords that end a FOR ... AS OF value at depth 0 (Trino requires AS before an alias there).
bool EndsTimeTravelValue(const Token& t) {
  static constexpr std::array<std::string_view, 20> kStops = {
      "where", "join", "left",  "right",  "full",     "inner",  "cross",  "on",    "using",  "group",
      "order", "limit", "offset", "having", "union", "intersect", "except", "window", "fetch", "as"};
  switch (t.kind) {
    case TokenKind::kComma:
    case TokenKind::kRightParen:
    case TokenKind::kSemicolon:
      return true;
    case TokenKind::kIdentifier:
      return std::find(kStops.begin(), kStops.end(), t.value) != kStops.end() || t.value == "natural" ||
             t.value == "tablesample";
    default:
      return false;
  }
}

// Words that may appear in a Trino type's text: `array(map(varchar, decimal(10,2)))`,
// `array(timestamp(6) with time zone)`.
bool IsTypeWord(std::string_view word) {
  static constexpr std::array<std::string_view, 32> kWords = {
      "array",  "map",    "boolean",   "bool",    "tinyint",   "smallint", "integer",   "int",
      "bigint", "real",   "double",    "float",   "decimal",   "numeric",  "varchar",   "char",
      "text",   "string", "date",      "time",    "timestamp", "uuid",     "varbinary", "json",
      "with",   "zone",   "precision", "varying", "interval",  "long",     "binary",    "character"};
  return std::find(kWords.begin(), kWords.end(), word) != kWords.end();
}

// Trino's `array(T)` and `map(K, V)` type syntax, which PostgreSQL's grammar has no form for:
// the token index of the closing parenthesis when tokens[i] starts one (array or map, an open
// parenthesis, then only type words, integers, commas and balanced parentheses, starting with a
// type word), else 0. A call such as map(ARRAY['a'], ARRAY[1]) has brackets and is left alone.
size_t NestedTypeEnd(const std::vector<Token>& tokens, size_t i, size_t last) {
  if (!(tokens[i].IsKeyword("array") || tokens[i].IsKeyword("map")) || i + 2 >= last ||
      tokens[i + 1].kind != TokenKind::kLeftParen ||
      !(tokens[i + 2].kind == TokenKind::kIdentifier && IsTypeWord(tokens[i + 2].value))) {
    return 0;
  }
  int depth = 0;
  for (size_t j = i + 1; j < last; ++j) {
    const Token& t = tokens[j];
    switch (t.kind) {
      case TokenKind::kLeftParen:
        ++depth;
        break;
      case TokenKind::kRightParen:
        if (--depth == 0) return j;
        break;
      case TokenKind::kComma:
      case TokenKind::kNumber:
        break;
      case TokenKind::kIdentifier:
        if (!IsTypeWord(t.value)) return 0;
        break;
      default:
        return 0;
    }
  }
  return 0;
}

}  // namespace

std::vector<TokenRange> SplitStatements(const std::vector<Token>& tokens) {
  std::vector<TokenRange> out;
  size_t start = 0;
  for (size_t i = 0; i <= tokens.size(); ++i) {
    if (i == tokens.size() || tokens[i].kind == TokenKind::kSemicolon) {
      if (i > start) out.push_back({start, i});
      start = i + 1;
    }
  }
  return out;
}

Result<RewrittenText> RewriteForPostgres(std::string_view original, const std::vector<Token>& tokens, TokenRange range,
                                         std::string_view prefix, int& parameter_count) {
  RewrittenText out;
  if (range.empty()) return out;
  int text_begin = tokens[range.first].begin;
  int text_end = tokens[range.last - 1].end;
  out.offsets.Replace(prefix, text_begin, text_begin, out.text);
  bool is_create = tokens[range.first].IsKeyword("create");

  int cursor = text_begin;            // Original offset copied up to.
  std::vector<int> out_offset_of(range.last - range.first, -1);  // Rewritten offset of each token.
  auto copy_to = [&](int offset) {
    out.offsets.Copy(original, cursor, offset, out.text);
    cursor = std::max(cursor, offset);
  };
  auto out_offset = [&](size_t i) -> int {
    // Tokens before the cursor have been copied: their rewritten offset is recorded.
    return out_offset_of[i - range.first];
  };

  for (size_t i = range.first; i < range.last; ++i) {
    const Token& t = tokens[i];
    copy_to(t.begin);
    out_offset_of[i - range.first] = static_cast<int>(out.text.size());
    if (t.kind == TokenKind::kQuestion) {
      out.offsets.Replace(fmt::format("${}", ++parameter_count), t.begin, t.end, out.text);
      cursor = t.end;
      continue;
    }
    // array(T), map(K, V): written as one quoted type name, which the binder reads back
    // (TypeFromName): "map(varchar,array(bigint))".
    if (size_t close = NestedTypeEnd(tokens, i, range.last); close > 0) {
      std::string type = "\"";
      for (size_t j = i; j <= close; ++j) {
        bool word = tokens[j].kind == TokenKind::kIdentifier || tokens[j].kind == TokenKind::kNumber;
        if (word && j > i && (tokens[j - 1].kind == TokenKind::kIdentifier || tokens[j - 1].kind == TokenKind::kNumber))
          type += ' ';
        type += word ? std::string_view(tokens[j].value)
                     : original.substr(static_cast<size_t>(tokens[j].begin),
                                       static_cast<size_t>(tokens[j].end - tokens[j].begin));
      }
      type += '"';
      out.offsets.Replace(type, t.begin, tokens[close].end, out.text);
      cursor = tokens[close].end;
      for (size_t j = i + 1; j <= close; ++j) out_offset_of[j - range.first] = static_cast<int>(out.text.size());
      i = close;
      continue;
    }
    if (t.IsKeyword("try_cast") && i + 1 < range.last && tokens[i + 1].kind == TokenKind::kLeftParen) {
      out.try_cast_offsets.push_back(static_cast<int>(out.text.size()));
      out.offsets.Replace("CAST", t.begin, t.end, out.text);
      cursor = t.end;
      continue;
    }
    // table FOR VERSION|TIMESTAMP AS OF value
    if (t.IsKeyword("for") && i > range.first && i + 4 < range.last + 1 && i + 3 < range.last &&
        (tokens[i + 1].IsKeyword("version") || tokens[i + 1].IsKeyword("timestamp")) && tokens[i + 2].IsKeyword("as") &&
        tokens[i + 3].IsKeyword("of") && IsNameToken(tokens[i - 1])) {
      size_t name_first = i - 1;
      while (name_first >= range.first + 2 && tokens[name_first - 1].kind == TokenKind::kDot &&
             IsNameToken(tokens[name_first - 2])) {
        name_first -= 2;
      }
      size_t value_first = i + 4;
      size_t value_last = value_first;
      int depth = 0;
      while (value_last < range.last) {
        const Token& v = tokens[value_last];
        if (depth == 0 && EndsTimeTravelValue(v)) break;
        if (v.kind == TokenKind::kLeftParen || v.kind == TokenKind::kLeftBracket) ++depth;
        if (v.kind == TokenKind::kRightParen || v.kind == TokenKind::kRightBracket) --depth;
        ++value_last;
      }
      if (value_last == value_first) {
        int at = value_first < range.last ? tokens[value_first].begin : tokens[range.last - 1].end;
        return SqlError(ErrorKind::kInvalidArgument, original, at,
                        fmt::format("FOR {} AS OF needs a value", tokens[i + 1].value == "version" ? "VERSION" : "TIMESTAMP"));
      }
      out.time_travel.push_back(CutTimeTravel{out_offset(name_first), tokens[i + 1].value == "version", t.begin,
                                              TokenRange{value_first, value_last}});
      out.offsets.Replace(" ", t.begin, tokens[value_last - 1].end, out.text);
      cursor = tokens[value_last - 1].end;
      for (size_t j = i + 1; j < value_last; ++j) out_offset_of[j - range.first] = static_cast<int>(out.text.size());
      i = value_last - 1;
      continue;
    }
    // CREATE TABLE ... PARTITIONED BY (list)
    if (is_create && t.IsKeyword("partitioned") && i + 2 < range.last && tokens[i + 1].IsKeyword("by") &&
        tokens[i + 2].kind == TokenKind::kLeftParen) {
      size_t close = i + 3;
      int depth = 1;
      for (; close < range.last; ++close) {
        if (tokens[close].kind == TokenKind::kLeftParen) ++depth;
        if (tokens[close].kind == TokenKind::kRightParen && --depth == 0) break;
      }
      if (close >= range.last) {
        return SqlError(ErrorKind::kInvalidArgument, original, tokens[i + 2].begin,
                        "unbalanced parentheses in PARTITIONED BY", ErrorCode::kSyntaxError);
      }
      out.partitioned_by = TokenRange{i + 3, close};
      out.offsets.Replace(" ", t.begin, tokens[close].end, out.text);
      cursor = tokens[close].end;
      for (size_t j = i + 1; j <= close; ++j) out_offset_of[j - range.first] = static_cast<int>(out.text.size());
      i = close;
      continue;
    }
  }
  copy_to(text_end);
  return out;
}

}  // namespace floe::sql

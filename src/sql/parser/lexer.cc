#include "sql/parser/lexer.h"

#include <cctype>

#include "sql/types/sql_error.h"

namespace floe::sql {
namespace {

bool IsIdentStart(unsigned char c) { return std::isalpha(c) || c == '_' || c >= 0x80; }
bool IsIdentChar(unsigned char c) { return std::isalnum(c) || c == '_' || c == '$' || c >= 0x80; }
bool IsOperatorChar(char c) {
  switch (c) {
    case '+': case '-': case '*': case '/': case '<': case '>': case '=': case '~': case '!':
    case '@': case '#': case '%': case '^': case '&': case '|': case '`':
      return true;
    default:
      return false;
  }
}

class Lexer {
 public:
  Lexer(std::string_view text, const LexerLimits& limits) : text_(text), limits_(limits) {}

  Result<std::vector<Token>> Run() {
    if (text_.size() > limits_.max_bytes) {
      return MakeError(ErrorKind::kResourceExhausted, "SQL text is {} bytes; the limit is {}", text_.size(),
                       limits_.max_bytes);
    }
    while (true) {
      FLOE_RETURN_IF_ERROR(SkipSpaceAndComments());
      if (pos_ >= text_.size()) break;
      if (tokens_.size() >= limits_.max_tokens) {
        return SqlError(ErrorKind::kResourceExhausted, text_, static_cast<int>(pos_),
                        fmt::format("statement has more than {} tokens", limits_.max_tokens));
      }
      FLOE_RETURN_IF_ERROR(Next());
    }
    return std::move(tokens_);
  }

 private:
  char At(size_t i) const { return i < text_.size() ? text_[i] : '\0'; }

  void Emit(TokenKind kind, size_t begin, std::string value = {}) {
    tokens_.push_back(Token{kind, static_cast<int>(begin), static_cast<int>(pos_), std::move(value)});
  }

  Status SkipSpaceAndComments() {
    while (pos_ < text_.size()) {
      char c = text_[pos_];
      if (std::isspace(static_cast<unsigned char>(c))) {
        ++pos_;
      } else if (c == '-' && At(pos_ + 1) == '-') {
        while (pos_ < text_.size() && text_[pos_] != '\n') ++pos_;
      } else if (c == '/' && At(pos_ + 1) == '*') {
        size_t begin = pos_;
        int depth = 0;
        while (true) {
          if (pos_ >= text_.size()) {
            return SqlError(ErrorKind::kInvalidArgument, text_, static_cast<int>(begin), "unterminated /* comment",
                            ErrorCode::kSyntaxError);
          }
          if (text_[pos_] == '/' && At(pos_ + 1) == '*') {
            ++depth;
            pos_ += 2;
          } else if (text_[pos_] == '*' && At(pos_ + 1) == '/') {
            pos_ += 2;
            if (--depth == 0) break;
          } else {
            ++pos_;
          }
        }
      } else {
        break;
      }
    }
    return OkStatus();
  }

  // Scans a quoted run starting at the quote character at pos_; `backslash` enables E'' escapes.
  Status ScanQuoted(char quote, bool backslash, size_t token_begin, const char* what) {
    ++pos_;
    while (true) {
      if (pos_ >= text_.size()) {
        return SqlError(ErrorKind::kInvalidArgument, text_, static_cast<int>(token_begin),
                        fmt::format("unterminated {}", what), ErrorCode::kSyntaxError);
      }
      char c = text_[pos_];
      if (backslash && c == '\\') {
        pos_ += 2;
      } else if (c == quote) {
        if (At(pos_ + 1) == quote) {
          pos_ += 2;
        } else {
          ++pos_;
          return OkStatus();
        }
      } else {
        ++pos_;
      }
    }
  }

  Status Nest(int delta, size_t at) {
    depth_ += delta;
    if (depth_ > limits_.max_nesting) {
      return SqlError(ErrorKind::kResourceExhausted, text_, static_cast<int>(at),
                      fmt::format("nesting deeper than {} parentheses", limits_.max_nesting));
    }
    if (depth_ < 0) depth_ = 0;  // An unbalanced ')' is the grammar's error to report.
    return OkStatus();
  }

  Status Next() {
    size_t begin = pos_;
    char c = text_[pos_];
    unsigned char u = static_cast<unsigned char>(c);
    // String prefixes: E'..', X'..', B'..', N'..', U&'..'.
    if ((c == 'e' || c == 'E' || c == 'x' || c == 'X' || c == 'b' || c == 'B' || c == 'n' || c == 'N') &&
        At(pos_ + 1) == '\'') {
      ++pos_;
      FLOE_RETURN_IF_ERROR(ScanQuoted('\'', c == 'e' || c == 'E', begin, "quoted string"));
      Emit(TokenKind::kString, begin, std::string(text_.substr(begin, pos_ - begin)));
      return OkStatus();
    }
    if ((c == 'u' || c == 'U') && At(pos_ + 1) == '&' && (At(pos_ + 2) == '\'' || At(pos_ + 2) == '"')) {
      char quote = At(pos_ + 2);
      pos_ += 2;
      FLOE_RETURN_IF_ERROR(ScanQuoted(quote, false, begin, quote == '"' ? "quoted identifier" : "quoted string"));
      Emit(quote == '"' ? TokenKind::kQuotedIdentifier : TokenKind::kString, begin,
           std::string(text_.substr(begin, pos_ - begin)));
      return OkStatus();
    }
    if (IsIdentStart(u)) {
      std::string value;
      while (pos_ < text_.size() && IsIdentChar(static_cast<unsigned char>(text_[pos_]))) {
        value.push_back(static_cast<char>(std::tolower(static_cast<unsigned char>(text_[pos_]))));
        ++pos_;
      }
      Emit(TokenKind::kIdentifier, begin, std::move(value));
      return OkStatus();
    }
    if (std::isdigit(u) || (c == '.' && std::isdigit(static_cast<unsigned char>(At(pos_ + 1))))) {
      while (std::isdigit(static_cast<unsigned char>(At(pos_)))) ++pos_;
      if (At(pos_) == '.' && At(pos_ + 1) != '.') {
        ++pos_;
        while (std::isdigit(static_cast<unsigned char>(At(pos_)))) ++pos_;
      }
      if ((At(pos_) == 'e' || At(pos_) == 'E') &&
          (std::isdigit(static_cast<unsigned char>(At(pos_ + 1))) ||
           ((At(pos_ + 1) == '+' || At(pos_ + 1) == '-') && std::isdigit(static_cast<unsigned char>(At(pos_ + 2)))))) {
        pos_ += 2;
        while (std::isdigit(static_cast<unsigned char>(At(pos_)))) ++pos_;
      }
      Emit(TokenKind::kNumber, begin, std::string(text_.substr(begin, pos_ - begin)));
      return OkStatus();
    }
    switch (c) {
      case '\'':
        FLOE_RETURN_IF_ERROR(ScanQuoted('\'', false, begin, "quoted string"));
        Emit(TokenKind::kString, begin, std::string(text_.substr(begin, pos_ - begin)));
        return OkStatus();
      case '"': {
        FLOE_RETURN_IF_ERROR(ScanQuoted('"', false, begin, "quoted identifier"));
        std::string value;
        for (size_t i = begin + 1; i + 1 < pos_; ++i) {
          value.push_back(text_[i]);
          if (text_[i] == '"') ++i;  // "" stands for one quote.
        }
        Emit(TokenKind::kQuotedIdentifier, begin, std::move(value));
        return OkStatus();
      }
      case '$': {
        if (std::isdigit(static_cast<unsigned char>(At(pos_ + 1)))) {
          ++pos_;
          while (std::isdigit(static_cast<unsigned char>(At(pos_)))) ++pos_;
          Emit(TokenKind::kParameter, begin, std::string(text_.substr(begin, pos_ - begin)));
          return OkStatus();
        }
        // Dollar quoting: $tag$ ... $tag$.
        size_t tag_end = pos_ + 1;
        while (tag_end < text_.size() && IsIdentChar(static_cast<unsigned char>(text_[tag_end])) && text_[tag_end] != '$') {
          ++tag_end;
        }
        if (At(tag_end) == '$') {
          std::string_view tag = text_.substr(pos_, tag_end - pos_ + 1);
          size_t close = text_.find(tag, tag_end + 1);
          if (close == std::string_view::npos) {
            return SqlError(ErrorKind::kInvalidArgument, text_, static_cast<int>(begin),
                            "unterminated dollar-quoted string", ErrorCode::kSyntaxError);
          }
          pos_ = close + tag.size();
          Emit(TokenKind::kString, begin, std::string(text_.substr(begin, pos_ - begin)));
          return OkStatus();
        }
        ++pos_;
        Emit(TokenKind::kOperator, begin, "$");
        return OkStatus();
      }
      case '(': ++pos_; Emit(TokenKind::kLeftParen, begin); return Nest(1, begin);
      case ')': ++pos_; Emit(TokenKind::kRightParen, begin); return Nest(-1, begin);
      case '[': ++pos_; Emit(TokenKind::kLeftBracket, begin); return Nest(1, begin);
      case ']': ++pos_; Emit(TokenKind::kRightBracket, begin); return Nest(-1, begin);
      case ',': ++pos_; Emit(TokenKind::kComma, begin); return OkStatus();
      case '.': ++pos_; Emit(TokenKind::kDot, begin); return OkStatus();
      case ';': ++pos_; Emit(TokenKind::kSemicolon, begin); return OkStatus();
      case '?': ++pos_; Emit(TokenKind::kQuestion, begin); return OkStatus();
      case ':':
        ++pos_;
        if (At(pos_) == ':') {
          ++pos_;
          Emit(TokenKind::kOperator, begin, "::");
        } else {
          Emit(TokenKind::kColon, begin);
        }
        return OkStatus();
      default:
        break;
    }
    if (IsOperatorChar(c)) {
      while (pos_ < text_.size() && IsOperatorChar(text_[pos_])) {
        if (pos_ > begin && ((text_[pos_] == '-' && At(pos_ + 1) == '-') || (text_[pos_] == '/' && At(pos_ + 1) == '*'))) {
          break;  // A comment starts inside the operator run.
        }
        ++pos_;
      }
      Emit(TokenKind::kOperator, begin, std::string(text_.substr(begin, pos_ - begin)));
      return OkStatus();
    }
    // Anything else (a control byte, a stray backslash) is one character the grammar rejects.
    ++pos_;
    Emit(TokenKind::kOperator, begin, std::string(1, c));
    return OkStatus();
  }

  std::string_view text_;
  const LexerLimits& limits_;
  size_t pos_ = 0;
  int depth_ = 0;
  std::vector<Token> tokens_;
};

}  // namespace

Result<std::vector<Token>> Tokenize(std::string_view text, const LexerLimits& limits) {
  return Lexer(text, limits).Run();
}

}  // namespace floe::sql

#include "serve/parameter_substitution.h"

#include <charconv>

#include "sql/parser/lexer.h"

namespace floe::serve {

Result<int> CountParameters(std::string_view sql) {
  FLOE_ASSIGN_OR_RETURN(auto tokens, sql::Tokenize(sql));
  int highest = 0;
  int questions = 0;
  for (const auto& token : tokens) {
    if (token.kind == sql::TokenKind::kQuestion) ++questions;
    if (token.kind == sql::TokenKind::kParameter) {
      int n = 0;
      std::string_view digits = sql.substr(token.begin + 1, token.end - token.begin - 1);
      std::from_chars(digits.data(), digits.data() + digits.size(), n);
      highest = std::max(highest, n);
    }
  }
  return std::max(highest, questions);
}

Result<std::string> SubstituteParameters(std::string_view sql, const std::vector<std::string>& literals) {
  FLOE_ASSIGN_OR_RETURN(auto tokens, sql::Tokenize(sql));
  std::string out;
  int copied = 0;
  size_t question = 0;
  for (const auto& token : tokens) {
    size_t index;
    if (token.kind == sql::TokenKind::kQuestion) {
      index = question++;
    } else if (token.kind == sql::TokenKind::kParameter) {
      int n = 0;
      std::string_view digits = sql.substr(token.begin + 1, token.end - token.begin - 1);
      auto [end, ec] = std::from_chars(digits.data(), digits.data() + digits.size(), n);
      if (ec != std::errc() || n < 1) return InvalidArgument("bad parameter placeholder '{}'", sql.substr(token.begin, token.end - token.begin));
      index = static_cast<size_t>(n - 1);
    } else {
      continue;
    }
    if (index >= literals.size()) {
      return InvalidArgument("statement uses parameter {} but {} value{} bound", index + 1, literals.size(),
                             literals.size() == 1 ? " was" : "s were");
    }
    out.append(sql.substr(copied, token.begin - copied));
    out.append(literals[index]);
    copied = token.end;
  }
  out.append(sql.substr(copied));
  return out;
}

std::string QuoteString(std::string_view text) {
  std::string out = "'";
  for (char c : text) {
    if (c == '\'') out.push_back('\'');
    out.push_back(c);
  }
  return out + "'";
}

std::string UntypedLiteral(const std::optional<std::string>& text) {
  if (!text.has_value()) return "NULL";
  const std::string& t = *text;
  // A plain decimal number: -12, 3.5, 1e3. Anything else (leading zeros, '+', spaces) is text.
  bool number = !t.empty() && t.size() < 40;
  size_t i = 0;
  if (number && t[0] == '-') ++i;
  bool digits = false, dot = false, exponent = false;
  for (; number && i < t.size(); ++i) {
    char c = t[i];
    if (c >= '0' && c <= '9') {
      digits = true;
    } else if (c == '.' && !dot && !exponent) {
      dot = true;
    } else if ((c == 'e' || c == 'E') && digits && !exponent && i + 1 < t.size()) {
      exponent = true;
      if (t[i + 1] == '-' || t[i + 1] == '+') ++i;
    } else {
      number = false;
    }
  }
  size_t first_digit = t.starts_with("-") ? 1 : 0;
  if (number && digits && t.size() > first_digit + 1 && t[first_digit] == '0' && t[first_digit + 1] != '.') number = false;
  if (number && digits) return t;
  return QuoteString(t);
}

}  // namespace floe::serve

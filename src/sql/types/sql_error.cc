#include "sql/types/sql_error.h"

#include <charconv>

namespace floe::sql {

SourcePosition PositionOf(std::string_view text, int offset) {
  SourcePosition position;
  size_t end = offset < 0 ? 0 : std::min(static_cast<size_t>(offset), text.size());
  for (size_t i = 0; i < end; ++i) {
    unsigned char c = static_cast<unsigned char>(text[i]);
    if (c == '\n') {
      ++position.line;
      position.column = 1;
    } else if ((c & 0xC0) != 0x80) {  // Count characters, not UTF-8 continuation bytes.
      ++position.column;
    }
  }
  return position;
}

std::unexpected<Error> SqlError(ErrorKind kind, std::string_view text, int offset, std::string_view message) {
  if (offset < 0) return std::unexpected<Error>(Error(kind, std::string(message)));
  SourcePosition p = PositionOf(text, offset);
  return std::unexpected<Error>(Error(kind, fmt::format("line {}:{}: {}", p.line, p.column, message)));
}

std::optional<SourcePosition> ErrorPosition(const Error& error) {
  std::string_view m = error.message();
  // Context may have been prefixed ("statement 2: line 1:8: ..."): find the first "line ".
  size_t at = m.find("line ");
  if (at == std::string_view::npos) return std::nullopt;
  m.remove_prefix(at + 5);
  SourcePosition p;
  auto [after_line, ec1] = std::from_chars(m.data(), m.data() + m.size(), p.line);
  if (ec1 != std::errc() || after_line == m.data() + m.size() || *after_line != ':') return std::nullopt;
  auto [after_column, ec2] = std::from_chars(after_line + 1, m.data() + m.size(), p.column);
  if (ec2 != std::errc() || after_column == after_line + 1) return std::nullopt;
  return p;
}

}  // namespace floe::sql

#include "sql/types/sql_error.h"

namespace floe::sql {

TextPosition PositionOf(std::string_view text, int offset) {
  TextPosition position;
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

std::unexpected<Error> SqlError(ErrorKind kind, std::string_view text, int offset, std::string_view message,
                                ErrorCode code) {
  return std::unexpected<Error>(PointAt(Error(kind, std::string(message), code), text, offset));
}

Error PointAt(Error error, std::string_view text, int offset) {
  if (offset < 0 || error.position().has_value()) return error;
  TextPosition p = PositionOf(text, offset);
  return Error(error.kind(), fmt::format("line {}:{}: {}", p.line, p.column, error.message()), error.code())
      .WithPosition(p);
}

}  // namespace floe::sql

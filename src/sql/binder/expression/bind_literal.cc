// Literals and parameters: constants typed as SQL types them (an integer literal is INTEGER when it
// fits, else BIGINT, else DECIMAL), parameters left unknown until a value is given.
#include "sql/binder/binder_internal.h"
#include "sql/types/value_cast.h"

namespace floe::sql {

Result<BoundExprPtr> BinderImpl::BindLiteral(const ast::Literal& expr) {
  int at = expr.location;
  BoundExprPtr out;
  switch (expr.literal_kind) {
    case ast::LiteralKind::kNull:
      out = MakeConstant(Value::Null(SqlType::Unknown()));
      break;
    case ast::LiteralKind::kBool:
      out = MakeConstant(Value::Boolean(expr.bool_value));
      break;
    case ast::LiteralKind::kInteger: {
      errno = 0;
      char* end = nullptr;
      long long v = std::strtoll(expr.text.c_str(), &end, 10);
      if (errno == 0 && end != nullptr && *end == '\0') {
        bool fits_int = v >= INT32_MIN && v <= INT32_MAX;
        out = MakeConstant(Value::Int(fits_int ? SqlType::Integer() : SqlType::Bigint(), v));
      } else {
        auto decimal = ParseDecimalLiteral(expr.text);
        if (!decimal.has_value()) return ErrorAt(at, fmt::format("Invalid numeric literal: {}", expr.text));
        out = MakeConstant(std::move(*decimal));
      }
      break;
    }
    case ast::LiteralKind::kDecimal: {
      auto decimal = ParseDecimalLiteral(expr.text);
      if (!decimal.has_value()) return ErrorAt(at, fmt::format("Invalid numeric literal: {}", expr.text));
      out = MakeConstant(std::move(*decimal));
      break;
    }
    case ast::LiteralKind::kDouble:
      out = MakeConstant(Value::Double(SqlType::Double(), std::strtod(expr.text.c_str(), nullptr)));
      break;
    case ast::LiteralKind::kString:
      out = MakeConstant(Value::String(SqlType::Varchar(), expr.text));
      break;
    case ast::LiteralKind::kBinary: {
      if (expr.text.size() % 2 != 0) return ErrorAt(at, "Binary literal must have an even number of hex digits");
      std::string bytes;
      for (size_t i = 0; i < expr.text.size(); i += 2) {
        bytes.push_back(static_cast<char>(std::stoi(expr.text.substr(i, 2), nullptr, 16)));
      }
      out = MakeConstant(Value::String(SqlType(TypeKind::kVarbinary), std::move(bytes)));
      break;
    }
  }
  out->location = at;
  return out;
}

Result<BoundExprPtr> BinderImpl::BindParameter(const ast::Parameter& expr) {
  int at = expr.location;
  auto out = std::make_unique<BoundParameter>(SqlType::Unknown());
  out->parameter_index = expr.parameter_index;
  out->location = at;
  NoteParameter(expr.parameter_index);
  return out;
}

}  // namespace floe::sql

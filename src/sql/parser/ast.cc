#include <cstdio>
#include <cstdlib>

#include "sql/parser/ast_query.h"

namespace floe::sql::ast {

const char* ExprKindName(ExprKind kind) {
  switch (kind) {
    case ExprKind::kLiteral:
      return "Literal";
    case ExprKind::kColumnRef:
      return "ColumnRef";
    case ExprKind::kStar:
      return "Star";
    case ExprKind::kParameter:
      return "Parameter";
    case ExprKind::kUnary:
      return "Unary";
    case ExprKind::kBinary:
      return "Binary";
    case ExprKind::kAnd:
      return "And";
    case ExprKind::kOr:
      return "Or";
    case ExprKind::kFunction:
      return "FunctionCall";
    case ExprKind::kCast:
      return "Cast";
    case ExprKind::kCase:
      return "Case";
    case ExprKind::kInList:
      return "InList";
    case ExprKind::kBetween:
      return "Between";
    case ExprKind::kLike:
      return "Like";
    case ExprKind::kIsNull:
      return "IsNull";
    case ExprKind::kIsBool:
      return "IsBool";
    case ExprKind::kIsDistinct:
      return "IsDistinct";
    case ExprKind::kSubquery:
      return "Subquery";
    case ExprKind::kExists:
      return "Exists";
    case ExprKind::kInSubquery:
      return "InSubquery";
    case ExprKind::kFieldAccess:
      return "FieldAccess";
    case ExprKind::kSubscript:
      return "Subscript";
    case ExprKind::kArray:
      return "Array";
    case ExprKind::kRow:
      return "Row";
    case ExprKind::kCurrent:
      return "Current";
  }
  return "?";
}

void Expr::KindMismatch(ExprKind wanted) const {
  std::fprintf(stderr, "floe: a parsed %s expression was read as a %s expression\n", ExprKindName(kind),
               ExprKindName(wanted));
  std::abort();
}

Subquery::Subquery(int loc) : ExprNode(loc) {}
Subquery::~Subquery() = default;
Exists::Exists(int loc) : ExprNode(loc) {}
Exists::~Exists() = default;
InSubquery::InSubquery(int loc) : ExprNode(loc) {}
InSubquery::~InSubquery() = default;

TableRef::TableRef(Kind k, int loc) : kind(k), location(loc) {}
FrameBound::FrameBound(FrameBoundKind k) : kind(k) {}

}  // namespace floe::sql::ast

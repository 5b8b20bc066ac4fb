#include "sql/parser/ast_query.h"

namespace floe::sql::ast {

Expr::Expr(ExprKind k, int loc) : kind(k), location(loc) {}
Expr::~Expr() = default;
Expr::Expr(Expr&&) noexcept = default;
Expr& Expr::operator=(Expr&&) noexcept = default;

TableRef::TableRef(Kind k, int loc) : kind(k), location(loc) {}
FrameBound::FrameBound(FrameBoundKind k) : kind(k) {}

}  // namespace floe::sql::ast

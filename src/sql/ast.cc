#include "sql/ast_query.h"

namespace floe::sql::ast {

Expr::Expr(ExprKind k, int loc) : kind(k), location(loc) {}
Expr::~Expr() = default;
Expr::Expr(Expr&&) noexcept = default;
Expr& Expr::operator=(Expr&&) noexcept = default;

}  // namespace floe::sql::ast

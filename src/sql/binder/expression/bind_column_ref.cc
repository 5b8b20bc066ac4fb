// Column references: [catalog.schema.table | alias.]column[.field...], searched from the innermost
// query outwards (a column of an enclosing query makes the levels in between correlated).
#include "sql/binder/binder_internal.h"

namespace floe::sql {

namespace {

// Finds `parts` among the relations of `scope`: [qualifier...] column [field...].
struct ColumnMatch {
  const ScopeColumn* column = nullptr;
  size_t consumed = 0;  // Name parts used for the qualifier and column; the rest are fields.
  int matches = 0;
};

bool QualifierMatches(const ScopeRelation& relation, const std::vector<std::string>& parts, size_t q) {
  if (q == 1) return relation.alias == parts[0];
  if (!relation.table) return false;
  if (q == 2) return relation.table->schema == parts[0] && relation.table->table == parts[1];
  if (q == 3)
    return relation.table->catalog == parts[0] && relation.table->schema == parts[1] &&
           relation.table->table == parts[2];
  return false;
}

ColumnMatch FindColumn(const Scope& scope, const std::vector<std::string>& parts) {
  // Longest qualifier first: catalog.schema.table.column, schema.table.column, alias.column.
  for (size_t q = std::min<size_t>(3, parts.size() - 1); q >= 1; --q) {
    ColumnMatch match;
    for (const ScopeRelation& relation : scope.relations) {
      if (!QualifierMatches(relation, parts, q)) continue;
      for (const ScopeColumn& column : relation.columns) {
        if (column.name == parts[q]) {
          ++match.matches;
          match.column = &column;
          match.consumed = q + 1;
        }
      }
    }
    if (match.matches > 0) return match;
    if (q == 1) break;
  }
  ColumnMatch match;
  for (const ScopeRelation& relation : scope.relations) {
    for (const ScopeColumn& column : relation.columns) {
      if (column.name == parts[0] && !column.hidden) {
        ++match.matches;
        match.column = &column;
        match.consumed = 1;
      }
    }
  }
  return match;
}

}  // namespace

Result<BoundExprPtr> BinderImpl::BindColumnRef(const ast::ColumnRef& expr, ExprContext& context) {
  int at = expr.location;
  for (Scope* scope = context.scope; scope != nullptr; scope = scope->parent) {
    ColumnMatch match = FindColumn(*scope, expr.names);
    if (match.matches > 1) return ErrorAt(at, fmt::format("Column '{}' is ambiguous", DottedName(expr.names)));
    if (match.matches == 0) continue;
    // A column of an enclosing query: every level in between reads it from outside.
    for (Scope* s = context.scope; s != scope; s = s->parent) s->outer_references.push_back(match.column->id);
    BoundExprPtr out = MakeColumn(match.column->id, match.column->type, match.column->name);
    out->location = at;
    for (size_t i = match.consumed; i < expr.names.size(); ++i) {
      if (out->type.kind() != TypeKind::kRow) {
        return ErrorAt(at, fmt::format("Column '{}' cannot be resolved", DottedName(expr.names)),
                       ErrorKind::kInvalidArgument, ErrorCode::kNoSuchColumn);
      }
      const RowField* field = nullptr;
      for (const RowField& f : out->type.fields()) {
        if (f.name == expr.names[i]) field = &f;
      }
      if (field == nullptr) {
        return ErrorAt(at, fmt::format("Field '{}' not found in {}", expr.names[i], out->type.ToString()));
      }
      std::vector<BoundExprPtr> args;
      SqlType field_type = field->type;
      args.push_back(std::move(out));
      args.push_back(MakeConstant(Value::String(SqlType::Varchar(), expr.names[i])));
      out = MakeCall("field_access", field_type, std::move(args));
      out->location = at;
    }
    return out;
  }
  return ErrorAt(at, fmt::format("Column '{}' cannot be resolved", DottedName(expr.names)), ErrorKind::kInvalidArgument,
                 ErrorCode::kNoSuchColumn);
}

}  // namespace floe::sql

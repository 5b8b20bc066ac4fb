// Views: CREATE [OR REPLACE] VIEW binds its query to check it and to learn its columns; a
// view named in FROM is expanded where it is named, its stored text parsed and bound as a
// subquery in the view's own default schema (with the reader's rights: its tables are scanned
// as any other). A view's columns are those stored with it: a query that now gives other types
// is cast to them where an implicit cast exists, and is otherwise a stale view, as in Trino.
#include <algorithm>

#include "sql/binder/binder_internal.h"
#include "sql/parser/parser.h"
#include "sql/types/sql_error.h"
#include "sql/types/type_rules.h"

namespace floe::sql {
namespace {

// Views that read views that read views ... : deeper than this is refused (a cycle is refused
// sooner, by name).
constexpr size_t kMaxViewDepth = 32;

void Relocate(BoundExpr& expr, int location);

// Every expression of `plan`, its children and its subqueries now points at `location`: a
// view's expressions were positioned in the view's text, which a later (run-time) error would
// otherwise misplace in the reading statement's text.
void RelocatePlan(LogicalOperator& plan, int location) {
  ForEachExpression(plan, [&](BoundExprPtr& e) { Relocate(*e, location); });
  for (auto& child : plan.children) RelocatePlan(*child, location);
}

void Relocate(BoundExpr& expr, int location) {
  expr.location = location;
  for (auto& arg : expr.args) Relocate(*arg, location);
  // Subquery plans are shared once bound, but these were bound just now by this binder and
  // nothing else holds them yet.
  if (expr.kind == BoundKind::kSubquery && expr.As<BoundSubquery>().plan) {
    RelocatePlan(const_cast<LogicalOperator&>(*expr.As<BoundSubquery>().plan), location);
  }
}

std::string ViewKey(const QualifiedTableName& name) { return name.ToString(); }

}  // namespace

Result<LogicalPtr> BinderImpl::BindView(const ast::TableRef& ref, const QualifiedTableName& name,
                                        const CatalogView& view, Scope& scope) {
  if (ref.time_travel) return ErrorAt(ref.time_travel->location, "Time travel applies to tables, not to views");
  std::string key = ViewKey(name);
  for (const QualifiedTableName& expanding : expanding_views_) {
    if (ViewKey(expanding) == key) {
      return ErrorAt(ref.location, fmt::format("View '{}' is recursive: it reads itself", key));
    }
  }
  if (expanding_views_.size() >= kMaxViewDepth) {
    return ErrorAt(ref.location, fmt::format("View '{}' is nested more than {} views deep", key, kMaxViewDepth));
  }
  referenced_views_.insert(key);
  // The view's own failures keep their kind and code (a permission denied stays one).
  auto stale = [&](std::string_view why, ErrorKind kind = ErrorKind::kInvalidArgument,
                   ErrorCode code = ErrorCode::kUnspecified) {
    return ErrorAt(ref.location, fmt::format("Failed analyzing stored view '{}': {}", key, why), kind, code);
  };

  if (view.sql.empty()) {
    std::string dialects;
    for (const std::string& d : view.dialects) dialects += (dialects.empty() ? "" : ", ") + d;
    return stale(
        fmt::format("it has no SQL in dialect '{}' (it has: {})", kViewDialect, dialects.empty() ? "none" : dialects));
  }
  // The text and its tree live as long as this binder: bound expressions keep names from them.
  auto text = std::make_unique<std::string>(view.sql);
  auto parsed = ParseStatement(*text);
  if (!parsed.has_value()) return stale(parsed.error().message(), parsed.error().kind(), parsed.error().code());
  if ((*parsed)->kind != ast::StatementKind::kQuery) return stale("its SQL is not a query");
  const ast::Query& query = *(*parsed)->query;
  view_sources_.push_back(ViewSource{std::move(text), std::move(*parsed)});

  // Bind in the view's text and default schema; no outer scope, CTE or recursive CTE's working
  // table reaches into a view (its names mean what they meant when it was created).
  std::string_view outer_sql = sql_;
  BindOptions outer_options = options_;
  int outer_parameters = parameter_count_;
  std::vector<WorkingTable> outer_working_tables = std::move(working_tables_);
  working_tables_.clear();
  sql_ = *view_sources_.back().text;
  options_.catalog = view.default_catalog;
  options_.schema = view.default_schema;
  expanding_views_.push_back(name);
  auto bound = BindQuery(query, nullptr, nullptr);
  expanding_views_.pop_back();
  working_tables_ = std::move(outer_working_tables);
  sql_ = outer_sql;
  options_.catalog = outer_options.catalog;
  options_.schema = outer_options.schema;
  bool has_parameters = parameter_count_ != outer_parameters;
  parameter_count_ = outer_parameters;
  if (!bound.has_value()) {
    return stale(bound.error().message(), bound.error().kind(), bound.error().code());
  }
  if (has_parameters) return stale("its SQL has parameters");
  LogicalPtr plan = std::move(*bound);
  RelocatePlan(*plan, ref.location);

  if (plan->output.size() != view.columns.size()) {
    return stale(fmt::format("its query gives {} columns but the view was stored with {}", plan->output.size(),
                             view.columns.size()));
  }
  if (ref.column_aliases.size() > view.columns.size()) {
    return ErrorAt(ref.location, fmt::format("View '{}' has {} columns but {} column aliases", key, view.columns.size(),
                                             ref.column_aliases.size()));
  }
  // Projected to the stored names and types.
  auto project = std::make_unique<LogicalProject>();
  ScopeRelation relation;
  relation.alias = ref.alias.empty() ? name.table : ref.alias;
  if (ref.alias.empty()) relation.table = name;
  for (size_t i = 0; i < view.columns.size(); ++i) {
    const OutputColumn& given = plan->output[i];
    const TableColumn& stored = view.columns[i];
    auto value = Coerce(MakeColumn(given.id, given.type, given.name), stored.type, ref.location, "view column");
    if (!value.has_value()) {
      return stale(fmt::format("column '{}' is now of type {}, which cannot be coerced to its stored type {}",
                               stored.name, given.type.ToString(), stored.type.ToString()));
    }
    std::string column_name = i < ref.column_aliases.size() ? ref.column_aliases[i] : stored.name;
    ColumnId id = NewColumn();
    project->expressions.push_back(std::move(*value));
    project->output.push_back(OutputColumn{id, column_name, stored.type});
    relation.columns.push_back(ScopeColumn{column_name, id, stored.type});
  }
  project->children.push_back(std::move(plan));
  scope.relations.push_back(std::move(relation));
  return LogicalPtr(std::move(project));
}

Status BinderImpl::BindCreateView(const ast::Statement& statement, BoundStatement& out) {
  FLOE_ASSIGN_OR_RETURN(out.target, Qualify(statement.name, statement.name_location));
  const std::string key = ViewKey(out.target);
  if (catalog_.GetTable(out.target, TableVersion{}).has_value()) {
    return ErrorAt(statement.name_location, fmt::format("Table '{}' already exists", key), ErrorKind::kAlreadyExists);
  }
  if (!statement.or_replace && catalog_.GetView(out.target).has_value()) {
    return ErrorAt(statement.name_location, fmt::format("View '{}' already exists", key), ErrorKind::kAlreadyExists);
  }
  FLOE_ASSIGN_OR_RETURN(auto plan, BindQuery(*statement.query, nullptr, nullptr));
  if (parameter_count_ > 0) return ErrorAt(statement.location, "A view's query cannot have parameters");
  if (referenced_views_.contains(key)) {
    return ErrorAt(statement.name_location, fmt::format("View '{}' would read itself", key));
  }
  if (!statement.view_columns.empty() && statement.view_columns.size() != plan->output.size()) {
    return ErrorAt(statement.name_location, fmt::format("View '{}' names {} columns but its query gives {}", key,
                                                        statement.view_columns.size(), plan->output.size()));
  }
  auto view = std::make_shared<CatalogView>();
  view->name = out.target;
  view->sql = statement.query_text;
  view->default_catalog = options_.catalog;
  view->default_schema = options_.schema;
  view->comment = statement.comment;
  for (size_t i = 0; i < plan->output.size(); ++i) {
    const OutputColumn& c = plan->output[i];
    std::string column_name = statement.view_columns.empty() ? c.name : statement.view_columns[i];
    if (c.type.IsUnknown())
      return ErrorAt(statement.query->location, fmt::format("Column type is unknown: {}", column_name));
    bool repeated = std::any_of(view->columns.begin(), view->columns.end(),
                                [&](const TableColumn& other) { return other.name == column_name; });
    if (repeated) {
      return ErrorAt(statement.query->location, fmt::format("Column name '{}' specified more than once", column_name));
    }
    view->columns.push_back(TableColumn{column_name, c.type, true, 0});
  }
  out.view = std::move(view);
  out.description = fmt::format("CREATE {}VIEW {}", statement.or_replace ? "OR REPLACE " : "", key);
  return OkStatus();
}

Result<LogicalPtr> BinderImpl::ShowCreateView(const ast::Statement& statement) {
  FLOE_ASSIGN_OR_RETURN(auto name, Qualify(statement.name, statement.name_location));
  auto view = catalog_.GetView(name);
  if (!view.has_value()) {
    if (view.error().kind() != ErrorKind::kNotFound) return ErrorAt(statement.name_location, view.error());
    if (catalog_.GetTable(name, TableVersion{}).has_value()) {
      return ErrorAt(statement.name_location, fmt::format("Relation '{}' is a table, not a view", name.ToString()));
    }
    return ErrorAt(statement.name_location, fmt::format("View '{}' does not exist", name.ToString()),
                   ErrorKind::kNotFound, ErrorCode::kNoSuchView);
  }
  std::string text = fmt::format("CREATE VIEW {}", name.ToString());
  if ((*view)->comment) {
    std::string quoted;
    for (char c : *(*view)->comment) quoted += c == '\'' ? std::string("''") : std::string(1, c);
    text += fmt::format(" COMMENT '{}'", quoted);
  }
  text += " SECURITY INVOKER AS\n" + (*view)->sql;
  Scope scope;
  return VirtualTable("SHOW CREATE VIEW", {{"Create View", SqlType::Varchar()}},
                      {{Value::String(SqlType::Varchar(), std::move(text))}}, scope, "create_view");
}

}  // namespace floe::sql

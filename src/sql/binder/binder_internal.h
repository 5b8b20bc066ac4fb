// The binder's internal state, shared by binder_query.cc (statements, queries, FROM),
// binder_expr.cc (coercion, grouping, the dispatch of expressions) and expression/ (one binder
// per expression kind). Not part of the sql area's interface; see sql/binder.h.
#pragma once

#include <map>
#include <optional>
#include <memory>
#include <set>
#include <string>
#include <vector>

#include "sql/binder/binder.h"
#include "sql/function/function_registry.h"

namespace floe::sql {

struct ScopeColumn {
  std::string name;
  ColumnId id;
  SqlType type;
  bool hidden = false;  // The right side's copy of a USING column: not found unqualified, not in *.
  bool metadata = false;  // A table's metadata column ("$path", _pos, _row_id, ...): found by name, not in *.
};

// One relation visible in a FROM clause.
struct ScopeRelation {
  std::string alias;                 // The name it is referred to by.
  std::optional<QualifiedTableName> table;  // Set for catalog tables without an alias.
  std::vector<ScopeColumn> columns;
};

// The names visible to expressions of one query level; `parent` is the enclosing query's scope
// (for correlated references).
struct Scope {
  Scope* parent = nullptr;
  std::vector<ScopeRelation> relations;
  std::vector<ColumnId> outer_references;  // Columns of enclosing scopes this level read.
};

// CTEs visible at some point: a chain, innermost first.
struct CteScope {
  const CteScope* parent = nullptr;
  std::map<std::string, const ast::CommonTableExpr*> ctes;
  const ast::CommonTableExpr* Find(const std::string& name) const {
    for (const CteScope* s = this; s != nullptr; s = s->parent) {
      auto it = s->ctes.find(name);
      if (it != s->ctes.end()) return it->second;
    }
    return nullptr;
  }
};

// What an expression may contain where it is bound, and where aggregates and window calls go.
// GROUPING SETS, ROLLUP and CUBE: each set's group keys (indexes into the group keys), and the
// aggregation's column numbering the set a row belongs to (none for a plain GROUP BY, which is
// one set of every key). grouping() reads both.
struct GroupingSets {
  std::vector<std::vector<int>> sets;
  std::optional<ColumnId> set_column;
};

struct ExprContext {
  const char* clause = "expression";  // For messages: "WHERE", "GROUP BY", ...
  Scope* scope = nullptr;
  const CteScope* ctes = nullptr;
  bool allow_aggregates = false;
  bool allow_windows = false;
  std::vector<AggregateCall>* aggregates = nullptr;
  std::vector<ColumnId>* aggregate_ids = nullptr;
  std::vector<WindowCall>* windows = nullptr;
  std::vector<ColumnId>* window_ids = nullptr;
  const std::vector<ast::NamedWindow>* named_windows = nullptr;
  // When grouping: group keys and the ids of the FROM columns that must not appear bare.
  const std::vector<BoundExprPtr>* group_keys = nullptr;
  const std::vector<ColumnId>* group_ids = nullptr;
  const std::set<ColumnId>* grouped_input = nullptr;
  const GroupingSets* grouping_sets = nullptr;
};

// A bound query: its plan and the names of its visible output columns.
struct BoundQuery {
  LogicalPtr plan;
};

// Whether a FROM item is UNNEST(...).
bool IsUnnest(const ast::TableRef& ref);

// "a.b.c", for messages.
std::string DottedName(const std::vector<std::string>& parts);
// The function an operator calls ("+" is add, "=" is eq, "||" is concat), or null.
const char* OperatorFunction(const std::string& op);
// Whether `function` is a comparison (eq, lt, ..., is_distinct_from).
bool IsComparison(const std::string& function);
// A string literal, which takes the type it is used as (Coerce casts its text).
bool IsTextLiteral(const BoundExpr& e);
// NOT `arg`, pointing at `location`.
BoundExprPtr MakeNot(BoundExprPtr arg, int location);
// Every column `plan` reads anywhere, its children and subqueries included (sorted, once each):
// those it does not produce itself are the columns of enclosing queries it is correlated on.
std::vector<ColumnId> ColumnsReadBy(const LogicalOperator& plan);
// Whether a FROM item is LATERAL (subquery).
bool IsLateral(const ast::TableRef& ref);

class BinderImpl {
 public:
  BinderImpl(std::string_view sql, const SqlCatalog& catalog, const BindOptions& options)
      : sql_(sql), catalog_(catalog), options_(options), functions_(FunctionRegistry::BuiltIn()) {}

  Result<BoundStatement> BindStatement(const ast::Statement& statement);

  // Queries (binder_query.cc).
  Result<LogicalPtr> BindQuery(const ast::Query& query, Scope* outer, const CteScope* ctes);

  // Expressions: dispatched by kind (binder_expr.cc) to the binders below.
  Result<BoundExprPtr> BindExpr(const ast::Expr& expr, ExprContext& context);
  // Binds and requires a boolean result ("WHERE clause must evaluate to a boolean").
  Result<BoundExprPtr> BindPredicate(const ast::Expr& expr, ExprContext& context);
  // GROUPING SETS: the input once per set (a cross join with the sets' numbers), each key NULL
  // where the set leaves it out, as Trino's GroupId does; sets `aggregate`'s groups (the keys,
  // then the set number) and its global sets. Returns the new input of the aggregation.
  LogicalPtr ExpandGroupingSets(LogicalPtr input, const std::vector<BoundExprPtr>& keys, const GroupingSets& grouping,
                                LogicalAggregate& aggregate);
  // grouping(a, ...): a bit per argument, set where the row's grouping set leaves it out.
  Result<BoundExprPtr> BindGrouping(const ast::Expr& expr, ExprContext& context);
  // Replaces group-key subtrees with the keys' columns; bare input columns are an error.
  Result<BoundExprPtr> ApplyGrouping(BoundExprPtr expr, const ExprContext& context, int location);
  // A call of an operator's or a comparison's function on two bound arguments: a string literal
  // beside a typed value takes that value's type, then both are coerced to what the function
  // takes. `what` names the construct in messages ("BETWEEN").
  Result<BoundExprPtr> BindOperatorCall(const std::string& function, BoundExprPtr left, BoundExprPtr right,
                                        int location, std::string_view what);
  // Coerces `expr` to `type` (an implicit cast), or explains why not.
  Result<BoundExprPtr> Coerce(BoundExprPtr expr, const SqlType& type, int location, std::string_view what);
  // A constant value of `expr` if it is one (literals, casts of literals, negation).
  std::optional<Value> ConstantValue(const BoundExpr& expr) const;

  ColumnId NewColumn() { return ColumnId(next_column_++); }
  std::unexpected<Error> ErrorAt(int location, std::string_view message, ErrorKind kind = ErrorKind::kInvalidArgument,
                                 ErrorCode code = ErrorCode::kUnspecified) const;
  // `error` (kind and code kept) pointed at `location`.
  std::unexpected<Error> ErrorAt(int location, const Error& error) const;
  // "Table 'c.s.t' does not exist" (kNoSuchTable), as Trino words it.
  std::unexpected<Error> NoSuchTableAt(int location, const QualifiedTableName& name,
                                       ErrorKind kind = ErrorKind::kInvalidArgument) const;
  // `error` pointed at `location` as the user's mistake (kInvalidArgument), its code kept: a
  // function or type lookup's failure, which is the query's fault.
  std::unexpected<Error> UserErrorAt(int location, const Error& error) const;
  std::string_view sql() const { return sql_; }
  int parameter_count() const { return parameter_count_; }
  void NoteParameter(int index) { parameter_count_ = std::max(parameter_count_, index); }
  const FunctionRegistry& functions() const { return functions_; }

 private:
  // One binder per expression kind (expression/bind_<kind>.cc).
  Result<BoundExprPtr> BindLiteral(const ast::Literal& expr);
  Result<BoundExprPtr> BindParameter(const ast::Parameter& expr);
  Result<BoundExprPtr> BindColumnRef(const ast::ColumnRef& expr, ExprContext& context);
  Result<BoundExprPtr> BindUnary(const ast::Unary& expr, ExprContext& context);
  Result<BoundExprPtr> BindBinary(const ast::Binary& expr, ExprContext& context);
  Result<BoundExprPtr> BindConjunction(const ast::Expr& expr, ExprContext& context);
  Result<BoundExprPtr> BindCast(const ast::Cast& expr, ExprContext& context);
  Result<BoundExprPtr> BindCase(const ast::Case& expr, ExprContext& context);
  Result<BoundExprPtr> BindInList(const ast::InList& expr, ExprContext& context);
  Result<BoundExprPtr> BindBetween(const ast::Between& expr, ExprContext& context);
  Result<BoundExprPtr> BindLike(const ast::Like& expr, ExprContext& context);
  Result<BoundExprPtr> BindIsNull(const ast::IsNull& expr, ExprContext& context);
  Result<BoundExprPtr> BindIsBool(const ast::IsBool& expr, ExprContext& context);
  Result<BoundExprPtr> BindIsDistinct(const ast::IsDistinct& expr, ExprContext& context);
  Result<BoundExprPtr> BindSubquery(const ast::Expr& expr, ExprContext& context);
  Result<BoundExprPtr> BindFieldAccess(const ast::FieldAccess& expr, ExprContext& context);
  Result<BoundExprPtr> BindSubscript(const ast::Subscript& expr, ExprContext& context);
  Result<BoundExprPtr> BindConstructor(const ast::Expr& expr, ExprContext& context);
  Result<BoundExprPtr> BindFunction(const ast::FunctionCall& expr, ExprContext& context);
  Result<BoundExprPtr> BindCurrent(const ast::Current& expr);
  // The OVER part of a window call whose function, arguments and filter are bound; `id` is the
  // call's output column (bind_window.cc).
  Result<BoundExprPtr> BindWindowCall(const ast::WindowSpec& window, WindowCall call, ColumnId id, ExprContext& context,
                                      ExprContext& argument_context, int at);

  Result<LogicalPtr> BindSelect(const ast::Query& query, Scope* outer, const CteScope* ctes);
  Result<LogicalPtr> BindSetOp(const ast::Query& query, Scope* outer, const CteScope* ctes);
  Result<LogicalPtr> BindValues(const ast::Query& query, Scope* outer, const CteScope* ctes);
  Result<LogicalPtr> BindOrderLimit(const ast::Query& query, LogicalPtr plan, Scope* outer, const CteScope* ctes);
  Result<LogicalPtr> BindLimit(const ast::Query& query, LogicalPtr plan);
  Result<LogicalPtr> BindFromItem(const ast::TableRef& ref, Scope& scope, const CteScope* ctes);
  Result<LogicalPtr> BindNamedTable(const ast::TableRef& ref, Scope& scope, const CteScope* ctes);
  // Adds the relation a FROM subquery's rows are read by (its alias and column aliases).
  Status NameSubqueryRelation(const ast::TableRef& ref, LogicalOperator& plan, Scope& scope);
  // UNNEST(...) over `input`, the FROM items before it, whose columns its arguments may read
  // (binder_unnest.cc). `join_type`: kCross, or kLeft to keep rows with nothing to unnest.
  Result<LogicalPtr> BindUnnest(const ast::TableRef& ref, Scope& scope, const CteScope* ctes, LogicalPtr input,
                                LogicalJoinType join_type);
  // LATERAL (subquery) over `input`, the FROM items before it, whose columns it may read
  // (binder_lateral.cc). `join_type` kCross or kLeft; `condition` is the join's ON, or null.
  Result<LogicalPtr> BindLateral(const ast::TableRef& ref, Scope& scope, const CteScope* ctes, LogicalPtr input,
                                 LogicalJoinType join_type, const ast::Expr* condition);
  // The join of `left JOIN <item>` where the item is computed per left row (UNNEST, LATERAL):
  // kCross for CROSS and INNER, kLeft for LEFT; RIGHT and FULL are errors of kind
  // `right_or_full`, as are USING and NATURAL (binder_lateral.cc).
  Result<LogicalJoinType> JoinTypeOverLeftRows(const ast::TableRef& join, std::string_view what,
                                               ErrorKind right_or_full) const;
  // `left [CROSS | INNER | LEFT] JOIN LATERAL (...) [ON ...]` (binder_lateral.cc).
  Result<LogicalPtr> BindJoinLateral(const ast::TableRef& join, LogicalPtr left, Scope& scope, const CteScope* ctes);
  // `left JOIN UNNEST(...) [ON ...]` (binder_unnest.cc).
  Result<LogicalPtr> BindJoinUnnest(const ast::TableRef& join, LogicalPtr left, Scope& scope, const CteScope* ctes);
  Result<QualifiedTableName> Qualify(const std::vector<std::string>& name, int location) const;
  Result<TableVersion> BindVersion(const ast::TimeTravel& travel);
  Result<LogicalPtr> VirtualTable(const std::string& name, std::vector<TableColumn> columns,
                                  std::vector<std::vector<Value>> rows, Scope& scope, const std::string& alias);
  // DISTINCT ON: per value of the output columns `keys`, the first row in `order` (over the
  // output columns `order_targets`), as a window's row number filtered to 1.
  Result<LogicalPtr> DistinctOn(LogicalPtr plan, const std::vector<int>& keys, const std::vector<SortKey>& order,
                                const std::vector<int>& order_targets);
  Result<LogicalPtr> ShowStatement(const ast::Statement& statement);
  // Views (binder_view.cc): a view named in FROM, expanded there; CREATE VIEW's check and the
  // view it stores (`out.view`); SHOW CREATE VIEW's one row.
  Result<LogicalPtr> BindView(const ast::TableRef& ref, const QualifiedTableName& name, const CatalogView& view,
                              Scope& scope);
  Status BindCreateView(const ast::Statement& statement, BoundStatement& out);
  Result<LogicalPtr> ShowCreateView(const ast::Statement& statement);
  // WITH RECURSIVE (binder_recursive_cte.cc): a CTE whose query is `anchor UNION [ALL] step`
  // with the step reading the CTE itself, as a kRecursiveCte; any other CTE binds as usual.
  Result<LogicalPtr> BindCteQuery(const ast::CommonTableExpr& cte, const CteScope& earlier);
  // A reference to the CTE whose step is being bound: its working table. Null when `ref` names
  // none.
  Result<LogicalPtr> BindWorkingTableReference(const ast::TableRef& ref, Scope& scope);
  // UPDATE and MERGE (binder_row_changes.cc): `out.plan` and `out.row_changes`.
  Status BindUpdate(const ast::Statement& statement, const CatalogTable& table, BoundStatement& out);
  Status BindMerge(const ast::Statement& statement, const CatalogTable& table, BoundStatement& out);
  // An error at the first aggregate or window call among an UPDATE's or MERGE's expressions.
  Status RefuseAggregates(const ast::Statement& statement, std::string_view what) const;
  Result<std::vector<std::vector<Value>>> InformationSchemaRows(const std::string& table, const std::string& catalog);

  std::string_view sql_;
  // Set while binding UPDATE, DELETE and MERGE, whose plans must read exactly the target's
  // columns: no table offers its metadata columns then.
  bool binding_row_changes_ = false;
  const SqlCatalog& catalog_;
  BindOptions options_;
  const FunctionRegistry& functions_;
  int next_column_ = 1;
  // The recursive CTEs whose steps are being bound, innermost last.
  struct WorkingTable {
    std::string name;
    int32_t id = 0;
    std::vector<OutputColumn> columns;  // Names and types; each reference gets fresh ids.
    int references = 0;
  };
  std::vector<WorkingTable> working_tables_;
  // The views being expanded, innermost last (a name twice is a cycle), and every view this
  // statement expanded (CREATE OR REPLACE VIEW may not read the view it replaces).
  std::vector<QualifiedTableName> expanding_views_;
  std::set<std::string> referenced_views_;
  // The texts and trees of expanded views, kept while the binder lives.
  struct ViewSource {
    std::unique_ptr<std::string> text;
    ast::StatementPtr statement;
  };
  std::vector<ViewSource> view_sources_;
  int32_t next_working_table_ = 1;
  int parameter_count_ = 0;
};

}  // namespace floe::sql

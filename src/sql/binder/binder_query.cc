// Statement and query binding: FROM clauses, SELECT with grouping, windows, ordering and
// limits, set operations, VALUES, CTEs, SHOW/DESCRIBE/information_schema, and validation of
// DDL and writes.
#include <algorithm>
#include <cctype>
#include <numeric>
#include <set>

#include "sql/binder/binder_internal.h"
#include "sql/binder/metadata_tables.h"
#include "sql/binder/session_time_zone.h"
#include "sql/binder/system_tables.h"
#include "sql/function/scalar_evaluation.h"
#include "sql/parser/ast_statement.h"
#include "sql/types/sql_error.h"
#include "sql/types/temporal.h"
#include "sql/types/type_rules.h"

namespace floe::sql {
namespace {

using ast::AlterAction;
using ast::CommonTableExpr;
using ast::Expr;
using ast::ExprKind;
using ast::JoinType;
using ast::LiteralKind;
using ast::Query;
using ast::SelectItem;
using ast::SetOpKind;
using ast::Statement;
using ast::StatementKind;
using ast::TableRef;
using ast::TimeTravel;

// The name a select item's column gets: its alias, a column's name, a field's name, or _colN.
std::string ItemName(const SelectItem& item, size_t index) {
  if (!item.alias.empty()) return item.alias;
  const Expr& e = *item.expr;
  if (e.kind == ExprKind::kColumnRef) return e.As<ast::ColumnRef>().names.back();
  if (e.kind == ExprKind::kFieldAccess) return e.As<ast::FieldAccess>().field;
  return fmt::format("_col{}", index);
}

// `e` as a select-list position (ORDER BY 2), when it is an integer literal; else null.
const ast::Literal* PositionLiteral(const Expr& e) {
  if (e.kind != ExprKind::kLiteral) return nullptr;
  const auto& literal = e.As<ast::Literal>();
  return literal.literal_kind == LiteralKind::kInteger ? &literal : nullptr;
}

// The name `e` refers to when it is a column reference of one part (an output name perhaps);
// else null.
const std::string* OnePartColumnName(const Expr& e) {
  if (e.kind != ExprKind::kColumnRef) return nullptr;
  const auto& names = e.As<ast::ColumnRef>().names;
  return names.size() == 1 ? &names[0] : nullptr;
}

// Whether `name` occurs in `text` as a whole word (any case): a statement that could refer to a
// metadata column. A mention inside a string literal only adds a column nothing reads, which
// projection pruning drops again.
bool MentionsName(std::string_view text, std::string_view name) {
  auto word = [](char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_' || c == '$'; };
  for (size_t at = 0; at + name.size() <= text.size(); ++at) {
    if (!std::equal(name.begin(), name.end(), text.begin() + static_cast<std::ptrdiff_t>(at), [](char a, char b) {
          return std::tolower(static_cast<unsigned char>(a)) == std::tolower(static_cast<unsigned char>(b));
        })) {
      continue;
    }
    const size_t end = at + name.size();
    if ((at == 0 || !word(text[at - 1])) && (end == text.size() || !word(text[end]))) return true;
  }
  return false;
}

bool ContainsAggregate(const Expr& e, const FunctionRegistry& functions) {
  if (e.kind == ExprKind::kFunction) {
    const auto& call = e.As<ast::FunctionCall>();
    if (!call.window && call.names.size() == 1) {
      const FunctionInfo* info = functions.Find(call.names[0]);
      if (info != nullptr && info->kind == FunctionKind::kAggregate) return true;
    }
  }
  // Subqueries are their own query level; window specs do not make a query aggregate.
  for (const auto& arg : e.args) {
    if (ContainsAggregate(*arg, functions)) return true;
  }
  if (e.kind == ExprKind::kCase) {
    const auto& case_ = e.As<ast::Case>();
    if (case_.case_operand && ContainsAggregate(*case_.case_operand, functions)) return true;
    if (case_.case_else && ContainsAggregate(*case_.case_else, functions)) return true;
  }
  return false;
}

// The grouping sets of a GROUP BY as lists of group-key indexes: the parser's sets mapped
// through the de-duplicated keys (a key named twice in one set counts once), or, for a plain
// GROUP BY, one set of every key.
std::vector<std::vector<int>> GroupingSetsOfKeys(const ast::GroupBy& group_by, const std::vector<int>& key_of_expression,
                                                 size_t keys) {
  if (group_by.grouping_sets.empty()) {
    std::vector<int> all(keys);
    std::iota(all.begin(), all.end(), 0);
    return {all};
  }
  std::vector<std::vector<int>> sets;
  for (const auto& parsed : group_by.grouping_sets) {
    std::vector<int> set;
    for (int expression : parsed) {
      int key = key_of_expression[static_cast<size_t>(expression)];
      if (std::find(set.begin(), set.end(), key) == set.end()) set.push_back(key);
    }
    sets.push_back(std::move(set));
  }
  return sets;
}

LogicalPtr MakeValuesRow(std::vector<BoundExprPtr> row, std::vector<OutputColumn> output) {
  auto values = std::make_unique<LogicalValues>();
  values->rows.push_back(std::move(row));
  values->output = std::move(output);
  return values;
}

// Every row of `left` with every row of `right`, the columns of both in that order.
LogicalPtr CrossJoin(LogicalPtr left, LogicalPtr right) {
  auto join = std::make_unique<LogicalJoin>();
  join->join_type = LogicalJoinType::kCross;
  join->output = left->output;
  join->output.insert(join->output.end(), right->output.begin(), right->output.end());
  join->children.push_back(std::move(left));
  join->children.push_back(std::move(right));
  return join;
}

// A new node of class T over `child`, with the child's columns.
template <typename T>
std::unique_ptr<T> Wrap(LogicalPtr child) {
  auto op = std::make_unique<T>();
  op->output = child->output;
  op->children.push_back(std::move(child));
  return op;
}

}  // namespace

Result<QualifiedTableName> BinderImpl::Qualify(const std::vector<std::string>& name, int location) const {
  QualifiedTableName out;
  switch (name.size()) {
    case 1:
      out = {options_.catalog, options_.schema, name[0]};
      break;
    case 2:
      out = {options_.catalog, name[0], name[1]};
      break;
    case 3:
      out = {name[0], name[1], name[2]};
      break;
    default:
      return ErrorAt(location, "Table names have at most three parts: catalog.schema.table");
  }
  return out;
}

Result<TableVersion> BinderImpl::BindVersion(const TimeTravel& travel) {
  ExprContext context;
  context.clause = "FOR ... AS OF";
  FLOE_ASSIGN_OR_RETURN(auto bound, BindExpr(*travel.value, context));
  auto value = ConstantValue(*bound);
  TableVersion version;
  if (travel.kind == TimeTravel::Kind::kVersion) {
    if (value && !value->is_null() && value->type().IsInteger()) {
      version.kind = TableVersion::Kind::kSnapshotId;
      version.snapshot_id = value->as_int();
      return version;
    }
    if (value && !value->is_null() && value->type().kind() == TypeKind::kDecimal && value->type().scale() == 0) {
      version.kind = TableVersion::Kind::kSnapshotId;
      version.snapshot_id = static_cast<int64_t>(value->as_decimal());
      return version;
    }
    if (value && !value->is_null() && value->type().kind() == TypeKind::kVarchar) {
      version.kind = TableVersion::Kind::kRef;
      version.ref = value->as_string();
      return version;
    }
    return ErrorAt(travel.value->location, "FOR VERSION AS OF needs a snapshot id or a quoted branch or tag name");
  }
  if (value && !value->is_null()) {
    version.kind = TableVersion::Kind::kTimestamp;
    switch (value->type().kind()) {
      case TypeKind::kTimestamp:
      case TypeKind::kTimestampTz:
        version.timestamp_micros = value->as_int();
        return version;
      case TypeKind::kDate:
        version.timestamp_micros = value->as_int() * kMicrosPerDay;
        return version;
      default:
        break;
    }
  }
  return ErrorAt(travel.value->location, "FOR TIMESTAMP AS OF needs a constant timestamp or date, e.g. TIMESTAMP '2024-01-01 00:00:00 UTC'");
}

Result<LogicalPtr> BinderImpl::VirtualTable(const std::string& name, std::vector<TableColumn> columns,
                                            std::vector<std::vector<Value>> rows, Scope& scope, const std::string& alias) {
  auto values = std::make_unique<LogicalValues>();
  ScopeRelation relation;
  relation.alias = alias;
  for (const TableColumn& column : columns) {
    ColumnId id = NewColumn();
    values->output.push_back(OutputColumn{id, column.name, column.type});
    relation.columns.push_back(ScopeColumn{column.name, id, column.type});
  }
  for (auto& row : rows) {
    std::vector<BoundExprPtr> bound;
    for (auto& v : row) bound.push_back(MakeConstant(std::move(v)));
    values->rows.push_back(std::move(bound));
  }
  values->virtual_table = name;
  scope.relations.push_back(std::move(relation));
  return values;
}

Result<std::vector<std::vector<Value>>> BinderImpl::InformationSchemaRows(const std::string& table, const std::string& catalog) {
  std::vector<std::vector<Value>> rows;
  auto text = [](std::string s) { return Value::String(SqlType::Varchar(), std::move(s)); };
  FLOE_ASSIGN_OR_RETURN(auto schemas, catalog_.SchemaNames(catalog));
  if (table == "schemata") {
    rows.push_back({text(catalog), text("information_schema")});
    for (const auto& s : schemas) rows.push_back({text(catalog), text(s)});
    return rows;
  }
  auto add_columns = [&](const std::string& s, const std::string& t, const std::vector<TableColumn>& columns) {
    for (size_t i = 0; i < columns.size(); ++i) {
      const TableColumn& c = columns[i];
      rows.push_back({text(catalog), text(s), text(t), text(c.name),
                      Value::Int(SqlType::Bigint(), static_cast<int64_t>(i + 1)), Value::Null(SqlType::Varchar()),
                      text(c.nullable ? "YES" : "NO"), text(c.type.ToString())});
    }
  };
  for (const auto& s : schemas) {
    if (table != "views") {
      FLOE_ASSIGN_OR_RETURN(auto tables, catalog_.TableNames(catalog, s));
      for (const auto& t : tables) {
        if (table == "tables") {
          rows.push_back({text(catalog), text(s), text(t), text("BASE TABLE")});
          continue;
        }
        FLOE_ASSIGN_OR_RETURN(auto info, catalog_.GetTable(QualifiedTableName{catalog, s, t}, TableVersion{}));
        add_columns(s, t, info->columns);
      }
    }
    FLOE_ASSIGN_OR_RETURN(auto views, catalog_.ViewNames(catalog, s));
    for (const auto& v : views) {
      if (table == "tables") {
        rows.push_back({text(catalog), text(s), text(v), text("VIEW")});
        continue;
      }
      FLOE_ASSIGN_OR_RETURN(auto view, catalog_.GetView(QualifiedTableName{catalog, s, v}));
      if (table == "views") {
        rows.push_back({text(catalog), text(s), text(v), text(view->sql)});
      } else {
        add_columns(s, v, view->columns);
      }
    }
  }
  return rows;
}

Result<LogicalPtr> BinderImpl::BindNamedTable(const TableRef& ref, Scope& scope, const CteScope* ctes) {
  // The recursive CTE whose step this is, by its one-part name.
  FLOE_ASSIGN_OR_RETURN(LogicalPtr working, BindWorkingTableReference(ref, scope));
  if (working) return working;
  // A CTE by its one-part name.
  if (ref.name.size() == 1 && ctes != nullptr) {
    if (const CommonTableExpr* cte = ctes->Find(ref.name[0])) {
      if (ref.time_travel) return ErrorAt(ref.time_travel->location, "Time travel applies to tables, not to WITH queries");
      // Each reference binds the CTE anew (inlined), seeing only the CTEs defined before it.
      const CteScope* home = ctes;
      while (home != nullptr && !home->ctes.contains(ref.name[0])) home = home->parent;
      CteScope earlier;
      earlier.parent = home->parent;
      for (const auto& [name, other] : home->ctes) {
        if (other->location < cte->location) earlier.ctes[name] = other;
      }
      FLOE_ASSIGN_OR_RETURN(auto plan, BindCteQuery(*cte, earlier));
      if (!cte->column_aliases.empty() && cte->column_aliases.size() != plan->output.size()) {
        return ErrorAt(cte->location, fmt::format("WITH query '{}' has {} columns but {} column names", cte->name,
                                                  plan->output.size(), cte->column_aliases.size()));
      }
      ScopeRelation relation;
      relation.alias = ref.alias.empty() ? cte->name : ref.alias;
      for (size_t i = 0; i < plan->output.size(); ++i) {
        OutputColumn& column = plan->output[i];
        if (!cte->column_aliases.empty()) column.name = cte->column_aliases[i];
        if (i < ref.column_aliases.size()) column.name = ref.column_aliases[i];
        relation.columns.push_back(ScopeColumn{column.name, column.id, column.type});
      }
      scope.relations.push_back(std::move(relation));
      return plan;
    }
  }
  FLOE_ASSIGN_OR_RETURN(QualifiedTableName name, Qualify(ref.name, ref.location));
  std::string alias = ref.alias.empty() ? name.table : ref.alias;
  if (name.schema == "information_schema") {
    static const std::vector<std::pair<std::string, std::vector<std::string>>> kTables = {
        {"schemata", {"catalog_name", "schema_name"}},
        {"tables", {"table_catalog", "table_schema", "table_name", "table_type"}},
        {"views", {"table_catalog", "table_schema", "table_name", "view_definition"}},
        {"columns",
         {"table_catalog", "table_schema", "table_name", "column_name", "ordinal_position", "column_default",
          "is_nullable", "data_type"}}};
    for (const auto& [table, column_names] : kTables) {
      if (table != name.table) continue;
      std::vector<TableColumn> columns;
      for (const auto& c : column_names) {
        columns.push_back(TableColumn{c, c == "ordinal_position" ? SqlType::Bigint() : SqlType::Varchar()});
      }
      auto rows = InformationSchemaRows(table, name.catalog);
      if (!rows.has_value()) return ErrorAt(ref.location, rows.error());
      return VirtualTable(name.ToString(), std::move(columns), std::move(*rows), scope, alias);
    }
    return NoSuchTableAt(ref.location, name);
  }
  if (name.catalog == "system") {
    auto system = ReadSystemTable(catalog_, name.schema, name.table);
    if (!system.has_value()) return ErrorAt(ref.location, system.error());
    if (!system->has_value()) return NoSuchTableAt(ref.location, name);
    return VirtualTable(name.ToString(), std::move((*system)->columns), std::move((*system)->rows), scope, alias);
  }
  std::string metadata;
  if (size_t dollar = name.table.find('$'); dollar != std::string::npos) {
    metadata = name.table.substr(dollar + 1);
    name.table.resize(dollar);
  }
  TableVersion version;
  if (ref.time_travel) {
    FLOE_ASSIGN_OR_RETURN(version, BindVersion(*ref.time_travel));
  }
  auto table = catalog_.GetTable(name, version);
  if (!table.has_value()) {
    // A missing schema or catalog is named as such (Trino's SCHEMA_NOT_FOUND); anything else
    // missing is the table, unless a view has the name.
    ErrorCode code = table.error().code();
    if (table.error().kind() == ErrorKind::kNotFound && code != ErrorCode::kNoSuchNamespace &&
        code != ErrorCode::kNoSuchCatalog) {
      if (metadata.empty()) {
        auto view = catalog_.GetView(name);
        if (view.has_value()) return BindView(ref, name, **view, scope);
        if (view.error().kind() != ErrorKind::kNotFound) return ErrorAt(ref.location, view.error());
      }
      return NoSuchTableAt(ref.location, name);
    }
    return ErrorAt(ref.location, table.error());
  }
  auto scan = std::make_unique<LogicalScan>();
  scan->table = *table;
  scan->version = version;
  std::vector<TableColumn> columns = (*table)->columns;
  if (!metadata.empty()) {
    auto metadata_columns = MetadataTableColumns(metadata, **table);
    if (!metadata_columns) {
      return ErrorAt(ref.location,
                     fmt::format("Table '{}${}' does not exist: metadata tables are $snapshots, $history, "
                                 "$files, $manifests, $partitions, $refs and $properties",
                                 name.ToString(), metadata),
                     ErrorKind::kInvalidArgument, ErrorCode::kNoSuchTable);
    }
    columns = std::move(*metadata_columns);
    scan->metadata_table = metadata;
  }
  if (ref.column_aliases.size() > columns.size()) {
    return ErrorAt(ref.location, fmt::format("Table '{}' has {} columns but {} column aliases", name.ToString(), columns.size(),
                                             ref.column_aliases.size()));
  }
  ScopeRelation relation;
  relation.alias = alias;
  if (ref.alias.empty()) relation.table = name;
  for (size_t i = 0; i < columns.size(); ++i) {
    ColumnId id = NewColumn();
    std::string column_name = i < ref.column_aliases.size() ? ref.column_aliases[i] : columns[i].name;
    scan->scan_columns.push_back(ScanColumn{id, static_cast<int>(i)});
    scan->output.push_back(OutputColumn{id, column_name, columns[i].type});
    relation.columns.push_back(ScopeColumn{column_name, id, columns[i].type});
  }
  // Metadata columns join the scan only when the statement's text names them: a scan reading
  // none keeps its fast paths (row group splits, page skipping), and SELECT * never shows them.
  if (metadata.empty() && !binding_row_changes_) {
    for (size_t i = 0; i < (*table)->metadata_columns.size(); ++i) {
      const TableColumn& column = (*table)->metadata_columns[i];
      if (!MentionsName(sql_, column.name)) continue;
      ColumnId id = NewColumn();
      scan->scan_columns.push_back(ScanColumn{id, static_cast<int>(columns.size() + i)});
      scan->output.push_back(OutputColumn{id, column.name, column.type});
      relation.columns.push_back(ScopeColumn{column.name, id, column.type, false, true});
    }
  }
  scope.relations.push_back(std::move(relation));
  return scan;
}

Status BinderImpl::NameSubqueryRelation(const TableRef& ref, LogicalOperator& plan, Scope& scope) {
  if (ref.column_aliases.size() > plan.output.size()) {
    return ErrorAt(ref.location, "Column alias list has more entries than the subquery has columns");
  }
  ScopeRelation relation;
  relation.alias = ref.alias;
  for (size_t i = 0; i < plan.output.size(); ++i) {
    if (i < ref.column_aliases.size()) plan.output[i].name = ref.column_aliases[i];
    relation.columns.push_back(ScopeColumn{plan.output[i].name, plan.output[i].id, plan.output[i].type});
  }
  scope.relations.push_back(std::move(relation));
  return OkStatus();
}

Result<LogicalPtr> BinderImpl::BindFromItem(const TableRef& ref, Scope& scope, const CteScope* ctes) {
  switch (ref.kind) {
    case TableRef::Kind::kNamed:
      return BindNamedTable(ref, scope, ctes);
    case TableRef::Kind::kSubquery: {
      // LATERAL with nothing before it (the first FROM item) reads nothing more than any subquery.
      FLOE_ASSIGN_OR_RETURN(auto plan, BindQuery(*ref.subquery, scope.parent, ctes));
      FLOE_RETURN_IF_ERROR(NameSubqueryRelation(ref, *plan, scope));
      return plan;
    }
    case TableRef::Kind::kFunction: {
      if (IsUnnest(ref)) return BindUnnest(ref, scope, ctes, MakeValuesRow({}, {}), LogicalJoinType::kCross);
      const Expr& function = *ref.function;
      const auto* call = function.kind == ExprKind::kFunction ? &function.As<ast::FunctionCall>() : nullptr;
      if (call == nullptr || call->names.size() != 1 || call->names[0] != "iceberg_scan") {
        return ErrorAt(ref.location,
                       fmt::format("Table function '{}' is not supported (iceberg_scan is)",
                                   call == nullptr || call->names.empty() ? "?" : call->names.back()),
                       ErrorKind::kNotImplemented);
      }
      if (call->args.size() != 1 || call->args[0]->kind != ExprKind::kLiteral ||
          call->args[0]->As<ast::Literal>().literal_kind != LiteralKind::kString) {
        return ErrorAt(ref.location, "iceberg_scan needs one quoted table location: iceberg_scan('s3://bucket/path')");
      }
      const std::string& location = call->args[0]->As<ast::Literal>().text;
      auto table = catalog_.GetTableAt(location, TableVersion{});
      if (!table.has_value()) return ErrorAt(call->args[0]->location, table.error());
      auto scan = std::make_unique<LogicalScan>();
      scan->table = *table;
      ScopeRelation relation;
      relation.alias = ref.alias.empty() ? "iceberg_scan" : ref.alias;
      for (size_t i = 0; i < (*table)->columns.size(); ++i) {
        const TableColumn& column = (*table)->columns[i];
        ColumnId id = NewColumn();
        std::string column_name = i < ref.column_aliases.size() ? ref.column_aliases[i] : column.name;
        scan->scan_columns.push_back(ScanColumn{id, static_cast<int>(i)});
        scan->output.push_back(OutputColumn{id, column_name, column.type});
        relation.columns.push_back(ScopeColumn{column_name, id, column.type});
      }
      scope.relations.push_back(std::move(relation));
      return scan;
    }
    case TableRef::Kind::kJoin: {
      FLOE_ASSIGN_OR_RETURN(auto left, BindFromItem(*ref.left, scope, ctes));
      if (IsUnnest(*ref.right)) return BindJoinUnnest(ref, std::move(left), scope, ctes);
      if (IsLateral(*ref.right)) return BindJoinLateral(ref, std::move(left), scope, ctes);
      size_t left_relations = scope.relations.size();
      FLOE_ASSIGN_OR_RETURN(auto right, BindFromItem(*ref.right, scope, ctes));
      auto join = std::make_unique<LogicalJoin>();
      switch (ref.join_type) {
        case JoinType::kInner: join->join_type = LogicalJoinType::kInner; break;
        case JoinType::kLeft: join->join_type = LogicalJoinType::kLeft; break;
        case JoinType::kRight: join->join_type = LogicalJoinType::kRight; break;
        case JoinType::kFull: join->join_type = LogicalJoinType::kFull; break;
        case JoinType::kCross: join->join_type = LogicalJoinType::kCross; break;
      }
      join->output = left->output;
      join->output.insert(join->output.end(), right->output.begin(), right->output.end());
      join->children.push_back(std::move(left));
      join->children.push_back(std::move(right));
      std::vector<std::string> using_columns = ref.using_columns;
      if (ref.natural) {
        for (size_t r = left_relations; r < scope.relations.size(); ++r) {
          for (const auto& rc : scope.relations[r].columns) {
            for (size_t l = 0; l < left_relations; ++l) {
              for (const auto& lc : scope.relations[l].columns) {
                if (lc.name == rc.name && !lc.hidden && !lc.metadata && !rc.metadata) using_columns.push_back(rc.name);
              }
            }
          }
        }
      }
      if (!using_columns.empty()) {
        if (join->join_type == LogicalJoinType::kFull) {
          return ErrorAt(ref.location, "FULL JOIN ... USING is not supported; use ON", ErrorKind::kNotImplemented);
        }
        std::vector<BoundExprPtr> terms;
        for (const std::string& column : using_columns) {
          ScopeColumn* left_column = nullptr;
          ScopeColumn* right_column = nullptr;
          for (size_t i = 0; i < scope.relations.size(); ++i) {
            for (auto& c : scope.relations[i].columns) {
              if (c.name != column || c.hidden || c.metadata) continue;
              (i < left_relations ? left_column : right_column) = &c;
            }
          }
          if (left_column == nullptr || right_column == nullptr) {
            return ErrorAt(ref.location, fmt::format("Column '{}' is missing from one side of the join (USING)", column));
          }
          auto common = CommonSuperType(left_column->type, right_column->type);
          if (!common) return ErrorAt(ref.location, fmt::format("USING column '{}' has incompatible types", column));
          std::vector<BoundExprPtr> args;
          args.push_back(MakeCast(MakeColumn(left_column->id, left_column->type, left_column->name), *common));
          args.push_back(MakeCast(MakeColumn(right_column->id, right_column->type, right_column->name), *common));
          terms.push_back(MakeCall("eq", SqlType::Boolean(), std::move(args)));
          // The right side's copy is visible only when qualified (a right join would prefer it).
          (join->join_type == LogicalJoinType::kRight ? left_column : right_column)->hidden = true;
        }
        join->condition = CombineConjunction(std::move(terms));
        if (join->join_type == LogicalJoinType::kCross) join->join_type = LogicalJoinType::kInner;
      } else if (ref.condition) {
        ExprContext context;
        context.clause = "JOIN";
        context.scope = &scope;
        context.ctes = ctes;
        FLOE_ASSIGN_OR_RETURN(join->condition, BindPredicate(*ref.condition, context));
      }
      return join;
    }
  }
  return ErrorAt(ref.location, "unknown FROM item");
}

Result<LogicalPtr> BinderImpl::BindQuery(const Query& query, Scope* outer, const CteScope* ctes) {
  CteScope local;
  local.parent = ctes;
  for (const CommonTableExpr& cte : query.with) {
    if (local.ctes.contains(cte.name)) return ErrorAt(cte.location, fmt::format("WITH query name '{}' specified more than once", cte.name));
    local.ctes[cte.name] = &cte;
  }
  // Each CTE sees the ones before it: bind references through a chain that grows in order.
  // (Lookups go through `local`, whose entries precede their use by construction.)
  const CteScope* visible = query.with.empty() ? ctes : &local;
  switch (query.kind) {
    case Query::Kind::kSelect:
      return BindSelect(query, outer, visible);
    case Query::Kind::kSetOp:
      return BindSetOp(query, outer, visible);
    case Query::Kind::kValues:
      return BindValues(query, outer, visible);
  }
  return ErrorAt(query.location, "unknown query form");
}

Result<LogicalPtr> BinderImpl::BindValues(const Query& query, Scope* outer, const CteScope* ctes) {
  auto values = std::make_unique<LogicalValues>();
  std::vector<SqlType> types;
  Scope scope;
  scope.parent = outer;
  ExprContext context;
  context.clause = "VALUES";
  context.scope = &scope;
  context.ctes = ctes;
  for (const auto& row : query.values) {
    if (!types.empty() && row.size() != types.size()) {
      return ErrorAt(row.empty() ? query.location : row[0]->location, "VALUES rows must all have the same number of columns");
    }
    std::vector<BoundExprPtr> bound_row;
    for (size_t i = 0; i < row.size(); ++i) {
      FLOE_ASSIGN_OR_RETURN(auto value, BindExpr(*row[i], context));
      if (types.size() <= i) types.push_back(SqlType::Unknown());
      auto common = CommonSuperType(types[i], value->type);
      if (!common) {
        return ErrorAt(row[i]->location,
                       fmt::format("VALUES column {} has mismatched types {} and {}", i + 1, types[i].ToString(),
                                   value->type.ToString()),
                       ErrorKind::kInvalidArgument, ErrorCode::kTypeMismatch);
      }
      types[i] = *common;
      bound_row.push_back(std::move(value));
    }
    values->rows.push_back(std::move(bound_row));
  }
  for (auto& row : values->rows) {
    for (size_t i = 0; i < row.size(); ++i) {
      FLOE_ASSIGN_OR_RETURN(row[i], Coerce(std::move(row[i]), types[i], query.location, "VALUES"));
    }
  }
  for (size_t i = 0; i < types.size(); ++i) {
    values->output.push_back(OutputColumn{NewColumn(), fmt::format("_col{}", i), types[i]});
  }
  return BindOrderLimit(query, std::move(values), outer, ctes);
}

Result<LogicalPtr> BinderImpl::BindSetOp(const Query& query, Scope* outer, const CteScope* ctes) {
  FLOE_ASSIGN_OR_RETURN(auto left, BindQuery(*query.left, outer, ctes));
  FLOE_ASSIGN_OR_RETURN(auto right, BindQuery(*query.right, outer, ctes));
  const char* name = query.set_op == SetOpKind::kUnion ? "UNION" : query.set_op == SetOpKind::kIntersect ? "INTERSECT" : "EXCEPT";
  if (left->output.size() != right->output.size()) {
    return ErrorAt(query.right->location >= 0 ? query.right->location : query.location,
                   fmt::format("{} query has different number of fields: {}, {}", name, left->output.size(), right->output.size()));
  }
  std::vector<SqlType> types;
  for (size_t i = 0; i < left->output.size(); ++i) {
    auto common = CommonSuperType(left->output[i].type, right->output[i].type);
    if (!common) {
      return ErrorAt(query.location, fmt::format("column {} in {} query has incompatible types: {}, {}", i + 1, name,
                                                 left->output[i].type.ToString(), right->output[i].type.ToString()));
    }
    types.push_back(*common);
  }
  auto cast_side = [&](LogicalPtr side) -> LogicalPtr {
    bool needed = false;
    for (size_t i = 0; i < types.size(); ++i) needed |= !(side->output[i].type == types[i]);
    if (!needed) return side;
    auto project = std::make_unique<LogicalProject>();
    for (size_t i = 0; i < types.size(); ++i) {
      const OutputColumn& c = side->output[i];
      project->expressions.push_back(MakeCast(MakeColumn(c.id, c.type, c.name), types[i]));
      project->output.push_back(OutputColumn{NewColumn(), c.name, types[i]});
    }
    project->children.push_back(std::move(side));
    return project;
  };
  auto setop = std::make_unique<LogicalSetOp>();
  setop->set_op = query.set_op == SetOpKind::kUnion       ? LogicalSetOpType::kUnion
                  : query.set_op == SetOpKind::kIntersect ? LogicalSetOpType::kIntersect
                                                          : LogicalSetOpType::kExcept;
  setop->set_all = query.set_all;
  for (size_t i = 0; i < types.size(); ++i) {
    if (!types[i].IsComparable() && !query.set_all) {
      return ErrorAt(query.location, fmt::format("Type {} is not comparable and cannot be used in {} DISTINCT", types[i].ToString(), name));
    }
    setop->output.push_back(OutputColumn{NewColumn(), left->output[i].name, types[i]});
  }
  setop->children.push_back(cast_side(std::move(left)));
  setop->children.push_back(cast_side(std::move(right)));
  return BindOrderLimit(query, std::move(setop), outer, ctes);
}

// ORDER BY / LIMIT over a set operation or VALUES: only output columns by name or position.
Result<LogicalPtr> BinderImpl::BindOrderLimit(const Query& query, LogicalPtr plan, Scope* outer, const CteScope* ctes) {
  if (!query.order_by.empty()) {
    Scope scope;
    scope.parent = outer;
    ScopeRelation relation;
    for (const auto& c : plan->output) relation.columns.push_back(ScopeColumn{c.name, c.id, c.type});
    scope.relations.push_back(std::move(relation));
    ExprContext context;
    context.clause = "ORDER BY";
    context.scope = &scope;
    context.ctes = ctes;
    auto sort = Wrap<LogicalSort>(nullptr == plan ? nullptr : std::move(plan));
    for (const auto& item : query.order_by) {
      BoundExprPtr key;
      if (const ast::Literal* position = PositionLiteral(*item.expr)) {
        int64_t ordinal = std::strtoll(position->text.c_str(), nullptr, 10);
        if (ordinal < 1 || ordinal > static_cast<int64_t>(sort->output.size())) {
          return ErrorAt(item.expr->location,
                         fmt::format("ORDER BY position {} is not in select list", position->text));
        }
        const OutputColumn& c = sort->output[ordinal - 1];
        key = MakeColumn(c.id, c.type, c.name);
      } else {
        FLOE_ASSIGN_OR_RETURN(key, BindExpr(*item.expr, context));
      }
      if (!key->type.IsOrderable()) return ErrorAt(item.expr->location, fmt::format("Type {} is not orderable", key->type.ToString()));
      sort->order.push_back(SortKey{std::move(key), item.descending, item.nulls_first.value_or(false)});
    }
    plan = std::move(sort);
  }
  return BindLimit(query, std::move(plan));
}

Result<LogicalPtr> BinderImpl::BindLimit(const Query& query, LogicalPtr plan) {
  if (!query.limit && !query.offset) return plan;
  auto constant_count = [&](const Expr& e, const char* what) -> Result<std::optional<int64_t>> {
    ExprContext context;
    context.clause = what;
    FLOE_ASSIGN_OR_RETURN(auto bound, BindExpr(e, context));
    auto value = ConstantValue(*bound);
    if (value && value->is_null() && std::string_view(what) == "LIMIT") return std::optional<int64_t>();  // LIMIT ALL
    if (!value || value->is_null() || !value->type().IsInteger() || value->as_int() < 0) {
      return ErrorAt(e.location, fmt::format("{} must be a non-negative integer constant", what));
    }
    return std::optional<int64_t>(value->as_int());
  };
  auto limit = Wrap<LogicalLimit>(std::move(plan));
  if (query.limit) {
    FLOE_ASSIGN_OR_RETURN(limit->limit, constant_count(*query.limit, "LIMIT"));
  }
  if (query.offset) {
    FLOE_ASSIGN_OR_RETURN(auto offset, constant_count(*query.offset, "OFFSET"));
    limit->offset = offset.value_or(0);
  }
  return limit;
}

LogicalPtr BinderImpl::ExpandGroupingSets(LogicalPtr input, const std::vector<BoundExprPtr>& keys,
                                          const GroupingSets& grouping, LogicalAggregate& aggregate) {
  ColumnId set_number = NewColumn();
  auto numbers = std::make_unique<LogicalValues>();
  numbers->output.push_back(OutputColumn{set_number, "$grouping_set", SqlType::Bigint()});
  for (size_t s = 0; s < grouping.sets.size(); ++s) {
    std::vector<BoundExprPtr> row;
    row.push_back(MakeConstant(Value::Int(SqlType::Bigint(), static_cast<int64_t>(s))));
    numbers->rows.push_back(std::move(row));
    if (grouping.sets[s].empty()) aggregate.global_grouping_sets.push_back(static_cast<int64_t>(s));
  }
  LogicalPtr join = CrossJoin(std::move(input), std::move(numbers));

  auto project = std::make_unique<LogicalProject>();
  for (const OutputColumn& c : join->output) {
    project->output.push_back(c);
    project->expressions.push_back(MakeColumn(c.id, c.type, c.name));
  }
  for (size_t k = 0; k < keys.size(); ++k) {
    const SqlType& type = keys[k]->type;
    auto without = std::make_unique<BoundInList>(SqlType::Boolean());
    without->args.push_back(MakeColumn(set_number, SqlType::Bigint(), "$grouping_set"));
    for (size_t s = 0; s < grouping.sets.size(); ++s) {
      const auto& set = grouping.sets[s];
      if (std::find(set.begin(), set.end(), static_cast<int>(k)) == set.end()) {
        without->args.push_back(MakeConstant(Value::Int(SqlType::Bigint(), static_cast<int64_t>(s))));
      }
    }
    BoundExprPtr value = keys[k]->Clone();
    if (without->args.size() > 1) {  // CASE WHEN set IN (sets without the key) THEN NULL ELSE key END
      auto nulled = std::make_unique<BoundCase>(type);
      nulled->args.push_back(std::move(without));
      nulled->args.push_back(MakeConstant(Value::Null(type)));
      nulled->args.push_back(std::move(value));
      nulled->has_else = true;
      value = std::move(nulled);
    }
    ColumnId id = NewColumn();
    std::string name = keys[k]->kind == BoundKind::kColumn ? keys[k]->As<BoundColumnRef>().name : "group";
    project->output.push_back(OutputColumn{id, name, type});
    project->expressions.push_back(std::move(value));
    aggregate.groups.push_back(MakeColumn(id, type, name));
  }
  aggregate.groups.push_back(MakeColumn(set_number, SqlType::Bigint(), "$grouping_set"));
  project->children.push_back(std::move(join));
  return project;
}

Result<LogicalPtr> BinderImpl::BindSelect(const Query& query, Scope* outer, const CteScope* ctes) {
  Scope scope;
  scope.parent = outer;

  // FROM: comma-separated items are cross joins (the optimizer turns filters into conditions).
  LogicalPtr plan;
  for (const auto& item : query.from) {
    if (plan && IsUnnest(*item)) {
      // `t, UNNEST(t.items)`: each row of the items before it, expanded.
      FLOE_ASSIGN_OR_RETURN(plan, BindUnnest(*item, scope, ctes, std::move(plan), LogicalJoinType::kCross));
      continue;
    }
    if (plan && IsLateral(*item)) {
      // `t, LATERAL (SELECT ... t.x ...)`: the subquery once per row of the items before it.
      FLOE_ASSIGN_OR_RETURN(plan, BindLateral(*item, scope, ctes, std::move(plan), LogicalJoinType::kCross, nullptr));
      continue;
    }
    FLOE_ASSIGN_OR_RETURN(auto bound, BindFromItem(*item, scope, ctes));
    if (!plan) {
      plan = std::move(bound);
      continue;
    }
    plan = CrossJoin(std::move(plan), std::move(bound));
  }
  if (!plan) plan = MakeValuesRow({}, {});  // SELECT without FROM reads one empty row.

  ExprContext base;
  base.scope = &scope;
  base.ctes = ctes;
  base.named_windows = &query.windows;

  if (query.where) {
    ExprContext context = base;
    context.clause = "WHERE";
    FLOE_ASSIGN_OR_RETURN(auto predicate, BindPredicate(*query.where, context));
    auto filter = Wrap<LogicalFilter>(std::move(plan));
    filter->predicate = std::move(predicate);
    plan = std::move(filter);
  }

  // Expand * and t.* in the select list.
  struct Item {
    const Expr* expr = nullptr;  // Null for an expanded column.
    const ScopeColumn* column = nullptr;
    std::string name;
    int location = -1;
  };
  std::vector<Item> items;
  for (size_t i = 0; i < query.select.size(); ++i) {
    const SelectItem& item = query.select[i];
    if (item.expr->kind == ExprKind::kStar) {
      const std::vector<std::string>& qualifier = item.expr->As<ast::Star>().qualifier;
      bool any = false;
      for (const auto& relation : scope.relations) {
        if (!qualifier.empty()) {
          bool match = relation.alias == qualifier.back() &&
                       (qualifier.size() == 1 ||
                        (relation.table && qualifier.size() == 2 && relation.table->schema == qualifier[0]));
          if (!match) continue;
        }
        any = true;
        for (const auto& column : relation.columns) {
          if (!column.hidden && !column.metadata)
            items.push_back(Item{nullptr, &column, column.name, item.expr->location});
        }
      }
      if (!any) {
        return ErrorAt(item.expr->location, qualifier.empty()
                                                ? "SELECT * with no tables"
                                                : fmt::format("Table '{}' not found in FROM", qualifier.back()));
      }
      continue;
    }
    items.push_back(Item{item.expr.get(), nullptr, ItemName(item, items.size()), item.location});
  }

  bool aggregate = !query.group_by.expressions.empty() || !query.group_by.grouping_sets.empty() ||
                   (query.having && ContainsAggregate(*query.having, functions_));
  for (const auto& item : query.select) aggregate |= ContainsAggregate(*item.expr, functions_);
  for (const auto& item : query.order_by) aggregate |= ContainsAggregate(*item.expr, functions_);
  if (query.having && !aggregate) aggregate = true;

  std::vector<AggregateCall> aggregates;
  std::vector<ColumnId> aggregate_ids;
  std::vector<WindowCall> windows;
  std::vector<ColumnId> window_ids;
  std::vector<BoundExprPtr> group_keys;
  std::vector<ColumnId> group_ids;
  std::vector<int> key_of_expression;  // query.group_by.expressions[i] is group_keys[key_of_expression[i]].
  GroupingSets grouping;
  std::set<ColumnId> grouped_input;
  for (const auto& relation : scope.relations) {
    for (const auto& column : relation.columns) grouped_input.insert(column.id);
  }

  ExprContext select_context = base;
  select_context.clause = "SELECT";
  select_context.allow_aggregates = aggregate;
  select_context.allow_windows = true;
  select_context.aggregates = &aggregates;
  select_context.aggregate_ids = &aggregate_ids;
  select_context.windows = &windows;
  select_context.window_ids = &window_ids;

  if (aggregate) {
    ExprContext group_context = base;
    group_context.clause = "GROUP BY";
    for (const auto& g : query.group_by.expressions) {
      BoundExprPtr key;
      if (const ast::Literal* position = PositionLiteral(*g)) {
        int64_t ordinal = std::strtoll(position->text.c_str(), nullptr, 10);
        if (ordinal < 1 || ordinal > static_cast<int64_t>(items.size())) {
          return ErrorAt(g->location, fmt::format("GROUP BY position {} is not in select list", position->text));
        }
        const Item& item = items[ordinal - 1];
        if (item.expr == nullptr) {
          key = MakeColumn(item.column->id, item.column->type, item.column->name);
        } else {
          if (ContainsAggregate(*item.expr, functions_)) {
            return ErrorAt(g->location, fmt::format("GROUP BY position {} is an aggregate", position->text));
          }
          FLOE_ASSIGN_OR_RETURN(key, BindExpr(*item.expr, group_context));
        }
      } else {
        auto bound = BindExpr(*g, group_context);
        const std::string* alias = OnePartColumnName(*g);
        if (!bound.has_value() && alias != nullptr) {
          // GROUP BY an output alias (PostgreSQL and DuckDB allow it).
          for (const Item& item : items) {
            if (item.expr != nullptr && item.name == *alias && !ContainsAggregate(*item.expr, functions_)) {
              bound = BindExpr(*item.expr, group_context);
              break;
            }
          }
        }
        if (!bound.has_value()) return std::unexpected(bound.error());
        key = std::move(*bound);
      }
      if (!key->type.IsComparable()) {
        return ErrorAt(g->location, fmt::format("Type {} cannot be used in GROUP BY", key->type.ToString()));
      }
      int existing = -1;
      for (size_t k = 0; k < group_keys.size() && existing < 0; ++k) {
        if (group_keys[k]->Equals(*key)) existing = static_cast<int>(k);
      }
      key_of_expression.push_back(existing >= 0 ? existing : static_cast<int>(group_keys.size()));
      if (existing >= 0) continue;
      group_ids.push_back(NewColumn());
      group_keys.push_back(std::move(key));
    }
    grouping.sets = GroupingSetsOfKeys(query.group_by, key_of_expression, group_keys.size());
    // More than one set (or one that leaves keys out) aggregates each row once per set.
    if (grouping.sets.size() > 1 || grouping.sets[0].size() < group_keys.size()) grouping.set_column = NewColumn();
    select_context.group_keys = &group_keys;
    select_context.group_ids = &group_ids;
    select_context.grouped_input = &grouped_input;
    select_context.grouping_sets = &grouping;
  }

  BoundExprPtr having;
  if (query.having) {
    ExprContext context = select_context;
    context.clause = "HAVING";
    context.allow_windows = false;
    FLOE_ASSIGN_OR_RETURN(having, BindPredicate(*query.having, context));
    FLOE_ASSIGN_OR_RETURN(having, ApplyGrouping(std::move(having), select_context, query.having->location));
  }

  std::vector<BoundExprPtr> projections;
  std::vector<std::string> names;
  for (const Item& item : items) {
    BoundExprPtr bound;
    if (item.expr == nullptr) {
      bound = MakeColumn(item.column->id, item.column->type, item.column->name);
      bound->location = item.location;
    } else {
      FLOE_ASSIGN_OR_RETURN(bound, BindExpr(*item.expr, select_context));
    }
    if (aggregate) {
      FLOE_ASSIGN_OR_RETURN(bound, ApplyGrouping(std::move(bound), select_context, item.location));
    }
    projections.push_back(std::move(bound));
    names.push_back(item.name);
  }

  // ORDER BY and DISTINCT ON: positions and output names refer to the select list; other
  // expressions are bound over the input and carried as hidden columns.
  std::vector<SortKey> order;
  std::vector<BoundExprPtr> hidden;
  std::vector<int> order_targets;  // Index into projections (or projections.size() + hidden index).
  auto bind_target = [&](const Expr& e, const char* clause) -> Result<int> {
    int target = -1;
    const std::string* name = OnePartColumnName(e);
    if (const ast::Literal* position = PositionLiteral(e)) {
      int64_t ordinal = std::strtoll(position->text.c_str(), nullptr, 10);
      if (ordinal < 1 || ordinal > static_cast<int64_t>(projections.size())) {
        return ErrorAt(e.location, fmt::format("{} position {} is not in select list", clause, position->text));
      }
      target = static_cast<int>(ordinal - 1);
    } else if (name != nullptr) {
      int found = -1, count = 0;
      for (size_t i = 0; i < names.size(); ++i) {
        if (names[i] == *name && items[i].expr != nullptr && !items[i].name.empty() &&
            (items[i].expr->kind != ExprKind::kColumnRef || !query.select.empty())) {
          // Prefer an alias; a bare column with the same name is the same thing anyway.
          if (found < 0 || !(projections[i]->Equals(*projections[found]))) ++count;
          found = static_cast<int>(i);
        }
      }
      if (count > 1) return ErrorAt(e.location, fmt::format("'{}' in {} is ambiguous", *name, clause));
      target = found;
    }
    if (target < 0) {
      ExprContext context = select_context;
      context.clause = clause;
      FLOE_ASSIGN_OR_RETURN(auto bound, BindExpr(e, context));
      if (aggregate) {
        FLOE_ASSIGN_OR_RETURN(bound, ApplyGrouping(std::move(bound), select_context, e.location));
      }
      for (size_t i = 0; i < projections.size() + hidden.size() && target < 0; ++i) {
        const BoundExpr& known = i < projections.size() ? *projections[i] : *hidden[i - projections.size()];
        if (known.Equals(*bound)) target = static_cast<int>(i);
      }
      if (target < 0) {
        if (query.distinct) return ErrorAt(e.location, "For SELECT DISTINCT, ORDER BY expressions must appear in select list");
        target = static_cast<int>(projections.size() + hidden.size());
        hidden.push_back(std::move(bound));
      }
    }
    return target;
  };
  for (const auto& item : query.order_by) {
    FLOE_ASSIGN_OR_RETURN(int target, bind_target(*item.expr, "ORDER BY"));
    order_targets.push_back(target);
    order.push_back(SortKey{nullptr, item.descending, item.nulls_first.value_or(false)});
  }
  std::vector<int> distinct_on_targets;
  for (const auto& e : query.distinct_on) {
    FLOE_ASSIGN_OR_RETURN(int target, bind_target(*e, "DISTINCT ON"));
    distinct_on_targets.push_back(target);
  }

  if (aggregate) {
    auto node = std::make_unique<LogicalAggregate>();
    for (size_t i = 0; i < group_keys.size(); ++i) {
      node->output.push_back(OutputColumn{
          group_ids[i], group_keys[i]->kind == BoundKind::kColumn ? group_keys[i]->As<BoundColumnRef>().name : "group",
          group_keys[i]->type});
    }
    if (grouping.set_column) {
      plan = ExpandGroupingSets(std::move(plan), group_keys, grouping, *node);
      node->output.push_back(OutputColumn{*grouping.set_column, "$grouping_set", SqlType::Bigint()});
    }
    for (size_t i = 0; i < aggregates.size(); ++i) {
      node->output.push_back(OutputColumn{aggregate_ids[i], aggregates[i].function, aggregates[i].type});
    }
    if (!grouping.set_column) node->groups = std::move(group_keys);
    node->aggregates = std::move(aggregates);
    node->children.push_back(std::move(plan));
    plan = std::move(node);
    if (having) {
      auto filter = Wrap<LogicalFilter>(std::move(plan));
      filter->predicate = std::move(having);
      plan = std::move(filter);
    }
  }
  if (!windows.empty()) {
    auto node = Wrap<LogicalWindow>(std::move(plan));
    for (size_t i = 0; i < windows.size(); ++i) {
      node->output.push_back(OutputColumn{window_ids[i], windows[i].function, windows[i].type});
    }
    node->windows = std::move(windows);
    plan = std::move(node);
  }

  auto project = std::make_unique<LogicalProject>();
  for (size_t i = 0; i < projections.size(); ++i) {
    ColumnId id =
        projections[i]->kind == BoundKind::kColumn ? projections[i]->As<BoundColumnRef>().column : NewColumn();
    // A column passed through keeps its id unless it appears twice in the select list.
    for (const auto& existing : project->output) {
      if (existing.id == id) id = NewColumn();
    }
    project->output.push_back(OutputColumn{id, names[i], projections[i]->type});
  }
  for (size_t i = 0; i < hidden.size(); ++i) {
    project->output.push_back(OutputColumn{NewColumn(), "$order", hidden[i]->type});
  }
  project->expressions = std::move(projections);
  for (auto& h : hidden) project->expressions.push_back(std::move(h));
  project->children.push_back(std::move(plan));
  plan = std::move(project);
  size_t visible_columns = items.size();

  if (query.distinct) {
    for (size_t i = 0; i < visible_columns; ++i) {
      if (!plan->output[i].type.IsComparable()) {
        return ErrorAt(items[i].location,
                       fmt::format("DISTINCT can only be applied to comparable types (actual: {})",
                                   plan->output[i].type.ToString()),
                       ErrorKind::kInvalidArgument, ErrorCode::kTypeMismatch);
      }
    }
    plan = Wrap<LogicalDistinct>(std::move(plan));
  }
  if (!distinct_on_targets.empty()) {
    FLOE_ASSIGN_OR_RETURN(plan, DistinctOn(std::move(plan), distinct_on_targets, order, order_targets));
  }
  if (!order.empty()) {
    auto sort = Wrap<LogicalSort>(std::move(plan));
    for (size_t i = 0; i < order.size(); ++i) {
      const OutputColumn& c = sort->output[order_targets[i]];
      if (!c.type.IsOrderable()) return ErrorAt(query.order_by[i].expr->location, fmt::format("Type {} is not orderable", c.type.ToString()));
      order[i].expr = MakeColumn(c.id, c.type, c.name);
    }
    sort->order = std::move(order);
    plan = std::move(sort);
  }
  FLOE_ASSIGN_OR_RETURN(plan, BindLimit(query, std::move(plan)));
  if (plan->output.size() > visible_columns) {
    auto trim = std::make_unique<LogicalProject>();
    for (size_t i = 0; i < visible_columns; ++i) {
      const OutputColumn& c = plan->output[i];
      trim->expressions.push_back(MakeColumn(c.id, c.type, c.name));
      trim->output.push_back(c);
    }
    trim->children.push_back(std::move(plan));
    plan = std::move(trim);
  }
  return plan;
}

Result<LogicalPtr> BinderImpl::DistinctOn(LogicalPtr plan, const std::vector<int>& keys,
                                          const std::vector<SortKey>& order, const std::vector<int>& order_targets) {
  // row_number() OVER (PARTITION BY keys ORDER BY the query's order) = 1: per distinct key,
  // the first row in the query's order (an arbitrary one without ORDER BY), as DuckDB does.
  auto column = [&](int target) {
    const OutputColumn& c = plan->output[static_cast<size_t>(target)];
    return MakeColumn(c.id, c.type, c.name);
  };
  WindowCall first;
  first.function = "row_number";
  first.type = SqlType::Bigint();
  for (int key : keys) {
    const OutputColumn& c = plan->output[static_cast<size_t>(key)];
    if (!c.type.IsOrderable() && c.type.kind() != TypeKind::kRow) {
      return ErrorAt(-1, fmt::format("DISTINCT ON cannot be applied to type {}", c.type.ToString()), ErrorKind::kInvalidArgument,
                     ErrorCode::kTypeMismatch);
    }
    first.partition_by.push_back(column(key));
  }
  for (size_t i = 0; i < order.size(); ++i) {
    first.order_by.push_back(SortKey{column(order_targets[i]), order[i].descending, order[i].nulls_first});
  }
  ColumnId number = NewColumn();
  auto window = Wrap<LogicalWindow>(std::move(plan));
  window->output.push_back(OutputColumn{number, "row_number", SqlType::Bigint()});
  window->windows.push_back(std::move(first));
  auto filter = Wrap<LogicalFilter>(std::move(window));
  std::vector<BoundExprPtr> args;
  args.push_back(MakeColumn(number, SqlType::Bigint(), "row_number"));
  args.push_back(MakeConstant(Value::Int(SqlType::Bigint(), 1)));
  filter->predicate = MakeCall("eq", SqlType::Boolean(), std::move(args));
  return LogicalPtr(std::move(filter));
}

Result<LogicalPtr> BinderImpl::ShowStatement(const Statement& statement) {
  Scope scope;
  auto text = [](std::string s) { return Value::String(SqlType::Varchar(), std::move(s)); };
  auto filtered = [&](const std::string& name) {
    return statement.like_pattern.empty() || LikeMatches(name, statement.like_pattern, /*escape=*/'\0');
  };
  std::vector<std::vector<Value>> rows;
  auto fail = [&](const Error& e) { return ErrorAt(statement.name_location >= 0 ? statement.name_location : statement.location, e); };
  switch (statement.kind) {
    case StatementKind::kShowCatalogs:
      for (const auto& c : catalog_.CatalogNames()) {
        if (filtered(c)) rows.push_back({text(c)});
      }
      return VirtualTable("SHOW CATALOGS", {{"Catalog", SqlType::Varchar()}}, std::move(rows), scope, "catalogs");
    case StatementKind::kShowSchemas: {
      std::string catalog = statement.name.empty() ? options_.catalog : statement.name[0];
      auto schemas = catalog_.SchemaNames(catalog);
      if (!schemas.has_value()) return fail(schemas.error());
      schemas->push_back("information_schema");
      std::sort(schemas->begin(), schemas->end());
      for (const auto& s : *schemas) {
        if (filtered(s)) rows.push_back({text(s)});
      }
      return VirtualTable("SHOW SCHEMAS", {{"Schema", SqlType::Varchar()}}, std::move(rows), scope, "schemas");
    }
    case StatementKind::kShowTables: {
      // Tables and views, as Trino lists them.
      std::string catalog = statement.name.size() == 2 ? statement.name[0] : options_.catalog;
      std::string schema = statement.name.empty() ? options_.schema : statement.name.back();
      auto tables = catalog_.TableNames(catalog, schema);
      if (!tables.has_value()) return fail(tables.error());
      auto views = catalog_.ViewNames(catalog, schema);
      if (!views.has_value()) return fail(views.error());
      tables->insert(tables->end(), views->begin(), views->end());
      std::sort(tables->begin(), tables->end());
      for (const auto& t : *tables) {
        if (filtered(t)) rows.push_back({text(t)});
      }
      return VirtualTable("SHOW TABLES", {{"Table", SqlType::Varchar()}}, std::move(rows), scope, "tables");
    }
    case StatementKind::kShowColumns: {
      FLOE_ASSIGN_OR_RETURN(auto name, Qualify(statement.name, statement.name_location));
      std::vector<TableColumn> columns;
      auto table = catalog_.GetTable(name, TableVersion{});
      if (table.has_value()) {
        columns = (*table)->columns;
      } else {
        if (table.error().kind() != ErrorKind::kNotFound) return ErrorAt(statement.name_location, table.error());
        auto view = catalog_.GetView(name);
        if (!view.has_value()) return NoSuchTableAt(statement.name_location, name, ErrorKind::kNotFound);
        columns = (*view)->columns;
      }
      for (const auto& c : columns) {
        if (filtered(c.name)) rows.push_back({text(c.name), text(c.type.ToString()), text(""), text("")});
      }
      return VirtualTable("SHOW COLUMNS", {{"Column", SqlType::Varchar()}, {"Type", SqlType::Varchar()},
                                           {"Extra", SqlType::Varchar()}, {"Comment", SqlType::Varchar()}},
                          std::move(rows), scope, "columns");
    }
    default:
      return ErrorAt(statement.location, "not a SHOW statement");
  }
}

Result<BoundStatement> BinderImpl::BindStatement(const Statement& statement) {
  BoundStatement out;
  out.kind = statement.kind;
  auto table_name = [&]() -> Result<QualifiedTableName> { return Qualify(statement.name, statement.name_location); };
  auto existing_table = [&](const QualifiedTableName& name) -> Result<std::shared_ptr<const CatalogTable>> {
    auto table = catalog_.GetTable(name, TableVersion{});
    if (!table.has_value()) {
      if (table.error().kind() == ErrorKind::kNotFound) {
        return NoSuchTableAt(statement.name_location, name, ErrorKind::kNotFound);
      }
      return ErrorAt(statement.name_location, table.error());
    }
    return *table;
  };
  switch (statement.kind) {
    case StatementKind::kQuery: {
      FLOE_ASSIGN_OR_RETURN(out.plan, BindQuery(*statement.query, nullptr, nullptr));
      break;
    }
    case StatementKind::kExplain: {
      FLOE_ASSIGN_OR_RETURN(out, BindStatement(*statement.explained));
      out.explain = true;
      out.analyze = statement.analyze;
      break;
    }
    case StatementKind::kShowCatalogs:
    case StatementKind::kShowSchemas:
    case StatementKind::kShowTables:
    case StatementKind::kShowColumns: {
      FLOE_ASSIGN_OR_RETURN(out.plan, ShowStatement(statement));
      break;
    }
    case StatementKind::kShowCreateView: {
      FLOE_ASSIGN_OR_RETURN(out.plan, ShowCreateView(statement));
      break;
    }
    case StatementKind::kCreateView: {
      FLOE_RETURN_IF_ERROR(BindCreateView(statement, out));
      break;
    }
    case StatementKind::kDropView: {
      FLOE_ASSIGN_OR_RETURN(out.target, table_name());
      if (!statement.if_exists) {
        auto view = catalog_.GetView(out.target);
        if (!view.has_value()) {
          if (view.error().kind() != ErrorKind::kNotFound) return ErrorAt(statement.name_location, view.error());
          return ErrorAt(statement.name_location, fmt::format("View '{}' does not exist", out.target.ToString()),
                         ErrorKind::kNotFound, ErrorCode::kNoSuchView);
        }
      }
      out.description = fmt::format("DROP VIEW {}", out.target.ToString());
      break;
    }
    case StatementKind::kUse: {
      std::string catalog = statement.name.size() == 2 ? statement.name[0] : options_.catalog;
      auto schemas = catalog_.SchemaNames(catalog);
      if (!schemas.has_value()) return ErrorAt(statement.name_location, schemas.error());
      if (std::find(schemas->begin(), schemas->end(), statement.name.back()) == schemas->end()) {
        return ErrorAt(statement.name_location,
                       fmt::format("Schema '{}.{}' does not exist", catalog, statement.name.back()),
                       ErrorKind::kNotFound, ErrorCode::kNoSuchNamespace);
      }
      out.target = QualifiedTableName{catalog, statement.name.back(), ""};
      out.description = fmt::format("USE {}.{}", catalog, statement.name.back());
      break;
    }
    case StatementKind::kSetTimeZone: {
      auto zone = TimeZone::Find(statement.name.front());
      if (!zone) {
        return ErrorAt(statement.name_location, zone.error().message(), ErrorKind::kInvalidArgument,
                       ErrorCode::kInvalidParameterValue);
      }
      out.time_zone = *zone;
      out.description = fmt::format("SET TIME ZONE '{}'", (*zone)->name());
      break;
    }
    case StatementKind::kCreateSchema:
    case StatementKind::kDropSchema: {
      if (statement.name.size() > 2) return ErrorAt(statement.location, "Schema names have at most two parts: catalog.schema");
      out.target = QualifiedTableName{statement.name.size() == 2 ? statement.name[0] : options_.catalog, statement.name.back(), ""};
      out.description = fmt::format("{} SCHEMA {}.{}", statement.kind == StatementKind::kCreateSchema ? "CREATE" : "DROP",
                                    out.target.catalog, out.target.schema);
      break;
    }
    case StatementKind::kCreateTable:
    case StatementKind::kCreateTableAs: {
      FLOE_ASSIGN_OR_RETURN(out.target, table_name());
      auto exists = catalog_.GetTable(out.target, TableVersion{});
      if (exists.has_value() && !statement.if_not_exists) {
        return ErrorAt(statement.name_location, fmt::format("Table '{}' already exists", out.target.ToString()), ErrorKind::kAlreadyExists);
      }
      std::vector<std::string> columns;
      if (statement.kind == StatementKind::kCreateTable) {
        for (const auto& column : statement.columns) {
          auto type = TypeFromName(column.type);
          if (!type.has_value()) return UserErrorAt(column.type.location, type.error());
          if (std::find(columns.begin(), columns.end(), column.name) != columns.end()) {
            return ErrorAt(column.location, fmt::format("Column name '{}' specified more than once", column.name));
          }
          columns.push_back(column.name);
        }
      } else {
        FLOE_ASSIGN_OR_RETURN(out.plan, BindQuery(*statement.query, nullptr, nullptr));
        for (const auto& c : out.plan->output) columns.push_back(c.name);
      }
      // Partition transforms: identity (a column), year/month/day/hour(col), bucket(n, col), truncate(n, col).
      for (const auto& transform : statement.partitioned_by) {
        const ast::Expr& t = *transform;
        std::string source;
        if (const std::string* name = OnePartColumnName(t)) {
          source = *name;
        } else if (t.kind == ExprKind::kFunction && t.As<ast::FunctionCall>().names.size() == 1) {
          static const std::set<std::string> kOneArg = {"year", "years", "month", "months", "day", "days", "hour", "hours", "identity"};
          static const std::set<std::string> kTwoArgs = {"bucket", "truncate"};
          const std::string& f = t.As<ast::FunctionCall>().names[0];
          bool one = kOneArg.contains(f) && t.args.size() == 1;
          bool two = kTwoArgs.contains(f) && t.args.size() == 2 && PositionLiteral(*t.args[0]) != nullptr;
          const ast::Expr* column = one ? t.args[0].get() : two ? t.args[1].get() : nullptr;
          const std::string* column_name = column == nullptr ? nullptr : OnePartColumnName(*column);
          if (column_name == nullptr) {
            return ErrorAt(t.location, "Partition transforms are column, year(c), month(c), day(c), hour(c), bucket(n, c) or truncate(n, c)");
          }
          source = *column_name;
        } else {
          return ErrorAt(t.location, "Partition transforms are column, year(c), month(c), day(c), hour(c), bucket(n, c) or truncate(n, c)");
        }
        if (std::find(columns.begin(), columns.end(), source) == columns.end()) {
          return ErrorAt(t.location, fmt::format("Partition column '{}' is not a column of the table", source));
        }
      }
      out.description = fmt::format("CREATE TABLE {} ({} columns, {} partition fields)", out.target.ToString(), columns.size(),
                                    statement.partitioned_by.size());
      break;
    }
    case StatementKind::kInsert: {
      FLOE_ASSIGN_OR_RETURN(out.target, table_name());
      FLOE_ASSIGN_OR_RETURN(auto table, existing_table(out.target));
      FLOE_ASSIGN_OR_RETURN(out.plan, BindQuery(*statement.query, nullptr, nullptr));
      std::vector<const TableColumn*> targets;
      if (statement.insert_columns.empty()) {
        for (const auto& c : table->columns) targets.push_back(&c);
      } else {
        for (const auto& name : statement.insert_columns) {
          const TableColumn* found = nullptr;
          for (const auto& c : table->columns) {
            if (c.name == name) found = &c;
          }
          if (found == nullptr) {
            return ErrorAt(statement.name_location, fmt::format("Insert column name does not exist: {}", name),
                           ErrorKind::kInvalidArgument, ErrorCode::kNoSuchColumn);
          }
          targets.push_back(found);
        }
      }
      if (targets.size() != out.plan->output.size()) {
        return ErrorAt(statement.query->location,
                       fmt::format("Insert query has mismatched column types: table has {} columns, query has {}",
                                   targets.size(), out.plan->output.size()),
                       ErrorKind::kInvalidArgument, ErrorCode::kTypeMismatch);
      }
      for (size_t i = 0; i < targets.size(); ++i) {
        if (!CanCoerce(out.plan->output[i].type, targets[i]->type)) {
          return ErrorAt(
              statement.query->location,
              fmt::format("Insert query has mismatched column types: column '{}' is {}, query gives {}",
                          targets[i]->name, targets[i]->type.ToString(), out.plan->output[i].type.ToString()),
              ErrorKind::kInvalidArgument, ErrorCode::kTypeMismatch);
        }
      }
      out.description = fmt::format("INSERT INTO {} ({} columns)", out.target.ToString(), targets.size());
      break;
    }
    case StatementKind::kDelete: {
      FLOE_ASSIGN_OR_RETURN(out.target, table_name());
      FLOE_RETURN_IF_ERROR(existing_table(out.target));
      // The query selecting the rows to delete: Filter(Scan) under a projection of every column.
      binding_row_changes_ = true;
      auto plan = BindQuery(*statement.query, nullptr, nullptr);
      binding_row_changes_ = false;
      FLOE_ASSIGN_OR_RETURN(out.plan, std::move(plan));
      out.description = fmt::format("DELETE FROM {}", out.target.ToString());
      break;
    }
    case StatementKind::kUpdate:
    case StatementKind::kMerge: {
      FLOE_ASSIGN_OR_RETURN(out.target, table_name());
      FLOE_ASSIGN_OR_RETURN(auto table, existing_table(out.target));
      binding_row_changes_ = true;
      Status bound = statement.kind == StatementKind::kUpdate ? BindUpdate(statement, *table, out)
                                                              : BindMerge(statement, *table, out);
      binding_row_changes_ = false;
      FLOE_RETURN_IF_ERROR(bound);
      out.description = fmt::format("{} {}", statement.kind == StatementKind::kUpdate ? "UPDATE" : "MERGE INTO",
                                    out.target.ToString());
      break;
    }
    case StatementKind::kDropTable: {
      FLOE_ASSIGN_OR_RETURN(out.target, table_name());
      if (!statement.if_exists) {
        FLOE_RETURN_IF_ERROR(existing_table(out.target));
      }
      out.description = fmt::format("DROP TABLE {}", out.target.ToString());
      break;
    }
    case StatementKind::kAlterTable: {
      FLOE_ASSIGN_OR_RETURN(out.target, table_name());
      FLOE_ASSIGN_OR_RETURN(auto table, existing_table(out.target));
      auto has_column = [&](const std::string& name) {
        return std::any_of(table->columns.begin(), table->columns.end(), [&](const TableColumn& c) { return c.name == name; });
      };
      switch (statement.alter_action) {
        case AlterAction::kAddColumn: {
          const auto& column = statement.columns.at(0);
          auto type = TypeFromName(column.type);
          if (!type.has_value()) return UserErrorAt(column.type.location, type.error());
          if (has_column(column.name)) return ErrorAt(column.location, fmt::format("Column '{}' already exists", column.name));
          out.description = fmt::format("ALTER TABLE {} ADD COLUMN {} {}", out.target.ToString(), column.name, type->ToString());
          break;
        }
        case AlterAction::kDropColumn:
          if (!has_column(statement.column_name)) {
            return ErrorAt(statement.location, fmt::format("Column '{}' does not exist", statement.column_name),
                           ErrorKind::kInvalidArgument, ErrorCode::kNoSuchColumn);
          }
          out.description = fmt::format("ALTER TABLE {} DROP COLUMN {}", out.target.ToString(), statement.column_name);
          break;
        case AlterAction::kRenameColumn:
          if (!has_column(statement.column_name)) {
            return ErrorAt(statement.location, fmt::format("Column '{}' does not exist", statement.column_name),
                           ErrorKind::kInvalidArgument, ErrorCode::kNoSuchColumn);
          }
          if (has_column(statement.new_name)) {
            return ErrorAt(statement.location, fmt::format("Column '{}' already exists", statement.new_name));
          }
          out.description = fmt::format("ALTER TABLE {} RENAME COLUMN {} TO {}", out.target.ToString(), statement.column_name,
                                        statement.new_name);
          break;
      }
      break;
    }
    case StatementKind::kAnalyze: {
      FLOE_ASSIGN_OR_RETURN(out.target, table_name());
      FLOE_ASSIGN_OR_RETURN(auto analyzed, existing_table(out.target));
      (void)analyzed;  // Only its existence is checked here.
      out.description = fmt::format("ANALYZE {}", out.target.ToString());
      break;
    }
    case StatementKind::kAlterTableExecute: {
      FLOE_ASSIGN_OR_RETURN(out.target, table_name());
      FLOE_ASSIGN_OR_RETURN(auto table, existing_table(out.target));
      static const std::map<std::string, std::set<std::string>> kProcedures = {
          {"optimize", {"file_size_threshold"}},
          {"expire_snapshots", {"retention_threshold"}},
          {"remove_orphan_files", {"retention_threshold"}},
          {"optimize_manifests", {}},
      };
      auto procedure = kProcedures.find(statement.procedure);
      if (procedure == kProcedures.end()) {
        return ErrorAt(statement.location, fmt::format("Procedure '{}' is not known: use optimize, expire_snapshots, "
                                                       "remove_orphan_files or optimize_manifests", statement.procedure));
      }
      for (const auto& argument : statement.procedure_args) {
        if (!argument.name.empty() && !procedure->second.contains(argument.name)) {
          return ErrorAt(argument.value->location, fmt::format("Procedure '{}' has no argument '{}'", statement.procedure, argument.name));
        }
        ExprContext context;
        context.clause = "Procedure argument";
        FLOE_ASSIGN_OR_RETURN(auto value, BindExpr(*argument.value, context));
        if (!value->IsConstant()) return ErrorAt(argument.value->location, "Procedure arguments must be constants");
      }
      if (statement.where) {
        if (statement.procedure != "optimize") return ErrorAt(statement.where->location, "Only optimize takes a WHERE clause");
        Scope scope;
        ScopeRelation relation;
        relation.alias = out.target.table;
        relation.table = out.target;
        for (const auto& c : table->columns) relation.columns.push_back(ScopeColumn{c.name, NewColumn(), c.type});
        scope.relations.push_back(std::move(relation));
        ExprContext context;
        context.clause = "WHERE";
        context.scope = &scope;
        FLOE_RETURN_IF_ERROR(BindPredicate(*statement.where, context));
      }
      out.description = fmt::format("ALTER TABLE {} EXECUTE {}", out.target.ToString(), statement.procedure);
      break;
    }
  }
  out.parameter_count = parameter_count_;
  return out;
}

Result<BoundStatement> Bind(const Statement& statement, std::string_view sql, const SqlCatalog& catalog, const BindOptions& options) {
  BinderImpl binder(sql, catalog, options);
  FLOE_ASSIGN_OR_RETURN(BoundStatement bound, binder.BindStatement(statement));
  if (bound.plan && options.time_zone && !options.time_zone->is_utc()) {
    if (Status zoned = ApplySessionTimeZone(*bound.plan, *options.time_zone); !zoned) {
      return std::unexpected(PointAt(zoned.error(), sql, statement.location));
    }
  }
  return bound;
}

}  // namespace floe::sql

#include "sql/sql_session.h"

#include <algorithm>

#include "sql/binder/session_time_zone.h"
#include "sql/execution/executor.h"
#include "sql/execution/expression_evaluator.h"
#include "sql/execution/physical_operator.h"
#include "sql/execution/row_changes.h"
#include "sql/parser/parser.h"
#include "sql/planner/optimizer.h"
#include "sql/types/sql_error.h"
#include "sql/types/type_rules.h"

namespace floe::sql {
namespace {

bool ReadsRows(ast::StatementKind kind) {
  return kind == ast::StatementKind::kQuery || kind == ast::StatementKind::kShowCatalogs ||
         kind == ast::StatementKind::kShowSchemas || kind == ast::StatementKind::kShowTables ||
         kind == ast::StatementKind::kShowColumns || kind == ast::StatementKind::kShowCreateView;
}

// "day(ts)", "bucket(16, id)", "region": a PARTITIONED BY term as Iceberg transform text.
std::string TransformText(const ast::Expr& e) {
  if (e.kind == ast::ExprKind::kColumnRef) return e.As<ast::ColumnRef>().names.back();
  if (e.kind == ast::ExprKind::kLiteral) return e.As<ast::Literal>().text;
  // The binder let only columns and calls of them through.
  const auto* call = e.kind == ast::ExprKind::kFunction ? &e.As<ast::FunctionCall>() : nullptr;
  std::string out = call == nullptr || call->names.empty() ? "?" : call->names.back();
  out += "(";
  for (size_t i = 0; i < e.args.size(); ++i) out += (i > 0 ? ", " : "") + TransformText(*e.args[i]);
  return out + ")";
}

Result<Value> LiteralValue(const ast::Expr& e) {
  if (e.kind == ast::ExprKind::kUnary && e.As<ast::Unary>().op == "-" && e.args.size() == 1) {
    FLOE_ASSIGN_OR_RETURN(Value v, LiteralValue(*e.args[0]));
    if (v.type().IsInteger()) return Value::Int(v.type(), -v.as_int());
    if (v.type().kind() == TypeKind::kDecimal) return Value::Decimal(v.type(), -v.as_decimal());
  }
  if (e.kind == ast::ExprKind::kLiteral) {
    const auto& literal = e.As<ast::Literal>();
    switch (literal.literal_kind) {
      case ast::LiteralKind::kString:
        return Value::String(SqlType::Varchar(), literal.text);
      case ast::LiteralKind::kInteger:
        return Value::Int(SqlType::Bigint(), std::stoll(literal.text));
      case ast::LiteralKind::kDecimal:
        return ParseDecimalLiteral(literal.text);
      case ast::LiteralKind::kDouble:
        return Value::Double(SqlType::Double(), std::stod(literal.text));
      case ast::LiteralKind::kBool:
        return Value::Boolean(literal.bool_value);
      default: break;
    }
  }
  return InvalidArgument("Procedure arguments must be literals");
}

// The PRIMARY KEY of CREATE TABLE, from a table constraint or the columns marked: names of
// existing columns, one key per table. They become the schema's identifier fields.
Result<std::vector<std::string>> PrimaryKeyOf(const ast::Statement& statement, std::string_view sql) {
  std::vector<std::string> key = statement.primary_key;
  for (const auto& column : statement.columns) {
    if (!column.primary_key) continue;
    if (!statement.primary_key.empty() || !key.empty()) return SqlError(ErrorKind::kInvalidArgument, sql, column.location, "multiple primary keys");
    key.push_back(column.name);
  }
  for (const std::string& name : key) {
    bool known = std::any_of(statement.columns.begin(), statement.columns.end(), [&](const auto& c) { return c.name == name; });
    if (!known) return SqlError(ErrorKind::kInvalidArgument, sql, statement.primary_key_location, fmt::format("PRIMARY KEY column {} does not exist", name));
    if (std::count(key.begin(), key.end(), name) > 1) {
      return SqlError(ErrorKind::kInvalidArgument, sql, statement.primary_key_location, fmt::format("PRIMARY KEY names column {} twice", name));
    }
  }
  return key;
}

std::string RowsMessage(const char* verb, int64_t rows) { return fmt::format("{}: {} row{}", verb, rows, rows == 1 ? "" : "s"); }

}  // namespace

std::vector<Value> ResultBatch::Row(int64_t row) const {
  std::vector<Value> out;
  for (size_t c = 0; c < types_.size(); ++c) out.push_back(At(row, c));
  return out;
}

Result<std::vector<StatementResult>> SqlSession::Run(std::string_view sql, const QueryOptions& query_options,
                                                     const std::function<void(const StatementResult&)>& each) {
  FLOE_ASSIGN_OR_RETURN(auto statements, Parse(sql));
  std::vector<StatementResult> out;
  for (const auto& statement : statements) {
    StatementResult result;
    StreamCallbacks callbacks;
    callbacks.on_columns = [&](const std::vector<std::string>& names, const std::vector<SqlType>& types) -> Status {
      result.column_names = names;
      result.column_types = types;
      return OkStatus();
    };
    callbacks.on_batch = [&](const ResultBatch& batch) -> Status {
      for (int64_t i = 0; i < batch.rows(); ++i) result.rows.push_back(batch.Row(i));
      return OkStatus();
    };
    FLOE_ASSIGN_OR_RETURN(auto summary, RunOne(*statement, sql, query_options, callbacks));
    result.message = summary.message;
    result.update_count = summary.update_count;
    result.warnings = std::move(summary.warnings);
    if (each) each(result);
    out.push_back(std::move(result));
  }
  return out;
}

Result<std::vector<StatementSummary>> SqlSession::RunStreaming(std::string_view sql, const QueryOptions& query_options,
                                                               const StreamCallbacks& callbacks) {
  FLOE_ASSIGN_OR_RETURN(auto statements, Parse(sql));
  std::vector<StatementSummary> out;
  for (const auto& statement : statements) {
    FLOE_ASSIGN_OR_RETURN(auto summary, RunOne(*statement, sql, query_options, callbacks));
    out.push_back(std::move(summary));
  }
  return out;
}

Result<std::string> SqlSession::Explain(std::string_view sql) {
  FLOE_ASSIGN_OR_RETURN(auto statement, ParseStatement(sql));
  FLOE_ASSIGN_OR_RETURN(auto bound, Bind(*statement, sql, catalog_, options_));
  if (!bound.plan) return InvalidArgument("statement has no query plan");
  FLOE_ASSIGN_OR_RETURN(auto plan, Optimize(std::move(bound.plan)));
  return ExplainPlan(*plan);
}

Result<StatementSummary> SqlSession::RunOne(const ast::Statement& statement, std::string_view sql, const QueryOptions& query_options,
                                            const StreamCallbacks& callbacks) {
  FLOE_ASSIGN_OR_RETURN(auto bound, Bind(statement, sql, catalog_, options_));
  StatementSummary summary;
  auto single_text = [&](std::string name, std::string text) -> Status {
    std::vector<std::string> names{std::move(name)};
    std::vector<SqlType> types{SqlType::Varchar()};
    if (callbacks.on_columns) FLOE_RETURN_IF_ERROR(callbacks.on_columns(names, types));
    DataChunk chunk;
    chunk.rows = 1;
    chunk.columns.push_back(ConstantVector(Value::String(SqlType::Varchar(), std::move(text)), 1));
    summary.rows = 1;
    if (callbacks.on_batch) return callbacks.on_batch(ResultBatch(chunk, types));
    return OkStatus();
  };
  if (bound.kind == ast::StatementKind::kSetTimeZone && !bound.explain) {
    options_.time_zone = bound.time_zone;
    summary.message = bound.description;
    return summary;
  }
  if (bound.kind == ast::StatementKind::kUse && !bound.explain) {
    options_.catalog = bound.target.catalog;
    options_.schema = bound.target.schema;
    summary.message = bound.description;
    return summary;
  }
  if (bound.parameter_count > 0) {
    return InvalidArgument("statement has {} parameter{} but no values were given", bound.parameter_count,
                           bound.parameter_count == 1 ? "" : "s");
  }
  if (bound.explain && !bound.analyze) {
    if (!bound.plan) return NotImplemented("EXPLAIN of this statement is not supported");
    FLOE_ASSIGN_OR_RETURN(auto plan, Optimize(std::move(bound.plan)));
    // Each scan is planned, so the plan shows what only planning knows (the log tail's offset
    // ranges); a scan that cannot be planned is shown without it.
    QueryContext context(catalog_, query_options, sql);
    std::string text = ExplainPlan(*plan, [&](const LogicalOperator& op) -> std::string {
      if (op.kind != LogicalKind::kScan || !op.As<LogicalScan>().table) return "";
      auto scan = catalog_.OpenScan(MakeScanRequest(op.As<LogicalScan>(), context));
      std::string detail = scan ? (*scan)->PlanDetail() : "";
      return detail.empty() ? "" : fmt::format(" [{}]", detail);
    });
    if (!text.empty() && text.back() == '\n') text.pop_back();
    summary.warnings = context.warnings();
    FLOE_RETURN_IF_ERROR(single_text("Query Plan", std::move(text)));
    return summary;
  }
  if (!ReadsRows(bound.kind)) {
    if (bound.explain) return NotImplemented("EXPLAIN ANALYZE of {} is not supported; it runs queries", bound.description);
    return RunWrite(statement, bound, sql, query_options);
  }
  FLOE_ASSIGN_OR_RETURN(auto plan, Optimize(std::move(bound.plan)));
  QueryContext context(catalog_, query_options, sql);
  context.session_catalog = options_.catalog;
  context.session_schema = options_.schema;
  Executor executor(context);
  std::vector<std::string> names;
  std::vector<SqlType> types;
  for (const auto& column : plan->output) {
    names.push_back(column.name);
    types.push_back(column.type);
  }
  if (!bound.explain && callbacks.on_columns) FLOE_RETURN_IF_ERROR(callbacks.on_columns(names, types));
  int64_t rows = 0;
  FLOE_RETURN_IF_ERROR(executor.Run(*plan, [&](DataChunk&& chunk) -> Status {
    rows += chunk.rows;
    if (bound.explain || !callbacks.on_batch) return OkStatus();
    return callbacks.on_batch(ResultBatch(chunk, types));
  }));
  // Statistics of every scan.
  std::vector<const LogicalOperator*> stack{plan.get()};
  while (!stack.empty()) {
    const LogicalOperator* op = stack.back();
    stack.pop_back();
    if (const OperatorStats* stats = context.FindStats(op); stats != nullptr && stats->has_scan) summary.scan.Add(stats->scan);
    for (const auto& c : op->children) stack.push_back(c.get());
  }
  summary.peak_memory = context.memory().peak();
  summary.warnings = context.warnings();
  if (!bound.explain) {
    summary.rows = rows;
    return summary;
  }
  std::string text = ExplainPlan(*plan, [&](const LogicalOperator& op) -> std::string {
    const OperatorStats* stats = context.FindStats(&op);
    if (stats == nullptr) return " (not run)";
    std::string out = fmt::format(" (actual rows {}{}{})", stats->rows.load(),
                                  stats->shared_result ? ", computed once for an identical subplan" : "",
                                  stats->spilled ? ", spilled to disk" : "");
    if (stats->has_scan) {
      out += fmt::format(" [{}", stats->scan.ToString());
      if (!stats->scan_detail.empty()) out += "; " + stats->scan_detail;
      out += "]";
    }
    return out;
  });
  text += fmt::format("Rows: {}, peak memory: {}", rows, FormatBytes(summary.peak_memory));
  FLOE_RETURN_IF_ERROR(single_text("Query Plan", std::move(text)));
  return summary;
}

Result<SqlSession::PushedWhere> SqlSession::PushWhere(LogicalPtr selection) {
  // The optimizer finds what storage can use: the terms pushed into the scan. The WHERE equals
  // their conjunction when nothing but projections stays above the scan (a filter, or a join a
  // subquery became, checks more) and no residual is pushed with them.
  FLOE_ASSIGN_OR_RETURN(LogicalPtr optimized, Optimize(std::move(selection)));
  static const ScanPredicate kNone;
  PushedWhere out;
  out.pushed = &kNone;
  const LogicalOperator* node = optimized.get();
  while (node != nullptr && node->kind != LogicalKind::kScan) {
    if (node->kind == LogicalKind::kEmpty) {
      out.never_true = true;
      return out;
    }
    if (node->kind != LogicalKind::kProject) out.exact = false;
    if (node->kind != LogicalKind::kProject && node->kind != LogicalKind::kFilter) {
      // A join (a subquery in the WHERE became one): its first child need not be the target's
      // scan, so nothing is pushed; every file is read and the WHERE decides row by row.
      return out;
    }
    node = node->children.empty() ? nullptr : node->children[0].get();
  }
  if (node != nullptr) out.pushed = &node->As<LogicalScan>().pushed;
  out.exact = out.exact && out.pushed->residual.empty();
  out.optimized = std::move(optimized);
  return out;
}

Result<int64_t> SqlSession::RunUpdate(BoundStatement& bound, std::string_view sql, const QueryOptions& query_options) {
  // The binder's plan selects the rows to update: Filter(Scan), or the Scan alone.
  BoundExprPtr where;
  if (bound.plan->kind == LogicalKind::kFilter) where = bound.plan->As<LogicalFilter>().predicate->Clone();
  FLOE_ASSIGN_OR_RETURN(auto table, catalog_.GetTable(bound.target, TableVersion{}));
  BoundRowChanges& changes = *bound.row_changes;
  if (options_.time_zone) {
    for (BoundExprPtr& value : changes.values) FLOE_RETURN_IF_ERROR(ApplySessionTimeZone(value, *options_.time_zone));
  }
  FLOE_ASSIGN_OR_RETURN(PushedWhere pushed, PushWhere(std::move(bound.plan)));
  if (pushed.never_true) return int64_t{0};
  if (where) OptimizeSubqueryPlans(*where);
  for (BoundExprPtr& value : changes.values) OptimizeSubqueryPlans(*value);
  QueryContext context(catalog_, query_options, sql);
  context.session_catalog = options_.catalog;
  context.session_schema = options_.schema;
  Executor subqueries(context);  // Runs the subqueries of SET and WHERE.
  FLOE_ASSIGN_OR_RETURN(auto update, UpdateRows::Make(changes, where.get(), *table, context));
  FLOE_RETURN_IF_ERROR(writable_->RewriteRows(
      bound.target, *pushed.pushed, "update", [&](const formats::ColumnBatch& batch) { return update->Rewrite(batch); },
      nullptr));
  return update->rows_updated();
}

Result<int64_t> SqlSession::RunMerge(BoundStatement& bound, std::string_view sql, const QueryOptions& query_options) {
  FLOE_ASSIGN_OR_RETURN(auto table, catalog_.GetTable(bound.target, TableVersion{}));
  BoundRowChanges& changes = *bound.row_changes;
  if (options_.time_zone) {
    for (BoundRowChanges::Clause& clause : changes.clauses) {
      for (BoundExprPtr& value : clause.values) FLOE_RETURN_IF_ERROR(ApplySessionTimeZone(value, *options_.time_zone));
    }
  }
  // The source is read whole first (it is usually the small side: a batch of changes).
  QueryContext context(catalog_, query_options, sql);
  context.session_catalog = options_.catalog;
  context.session_schema = options_.schema;
  FLOE_ASSIGN_OR_RETURN(LogicalPtr source_plan, Optimize(std::move(changes.source)));
  if (changes.on) OptimizeSubqueryPlans(*changes.on);
  for (BoundRowChanges::Clause& clause : changes.clauses) {
    if (clause.condition) OptimizeSubqueryPlans(*clause.condition);
    for (BoundExprPtr& value : clause.values) OptimizeSubqueryPlans(*value);
  }
  Executor executor(context);  // Reads the source, then runs the clauses' subqueries.
  FLOE_ASSIGN_OR_RETURN(Materialized source_rows, executor.Materialize(*source_plan, nullptr));
  // The optimizer may reorder a join's columns (the smaller side builds): each source column is
  // found by its id in the plan as optimized.
  DataChunk source;
  source.rows = source_rows.rows();
  for (const OutputColumn& column : changes.source_columns) {
    auto at = std::find_if(source_plan->output.begin(), source_plan->output.end(),
                           [&](const OutputColumn& o) { return o.id == column.id; });
    if (at == source_plan->output.end()) return Internal("MERGE source column {} lost by the optimizer", column.name);
    source.columns.push_back(
        Concatenate(source_rows.chunks, static_cast<size_t>(at - source_plan->output.begin()), column.type));
  }
  FLOE_ASSIGN_OR_RETURN(auto merge, MergeRows::Make(changes, std::move(source), *table, context));
  FLOE_RETURN_IF_ERROR(writable_->RewriteRows(
      bound.target, ScanPredicate{}, "merge", [&](const formats::ColumnBatch& batch) { return merge->Rewrite(batch); },
      [&]() { return merge->InsertUnmatched(); }));
  return merge->rows_changed();
}

Result<int64_t> SqlSession::RunDelete(BoundStatement& bound, std::string_view sql, const QueryOptions& query_options) {
  // The binder's plan selects the rows to delete: Project(Filter(Scan)) (no Filter without a
  // WHERE). The WHERE is evaluated on the scan's columns, which are every table column in order.
  const LogicalOperator* scan = bound.plan.get();
  BoundExprPtr predicate;
  while (scan != nullptr && scan->kind != LogicalKind::kScan) {
    if (scan->kind == LogicalKind::kFilter) predicate = scan->As<LogicalFilter>().predicate->Clone();
    scan = scan->children.empty() ? nullptr : scan->children[0].get();
  }
  if (scan == nullptr || !scan->As<LogicalScan>().table) return Internal("DELETE without a table scan");
  std::vector<OutputColumn> columns = scan->output;
  FLOE_ASSIGN_OR_RETURN(PushedWhere where, PushWhere(std::move(bound.plan)));
  if (where.never_true) return int64_t{0};
  const ScanPredicate* pushed = where.pushed;
  bool exact = where.exact;
  if (predicate) OptimizeSubqueryPlans(*predicate);
  QueryContext context(catalog_, query_options, sql);
  context.session_catalog = options_.catalog;
  context.session_schema = options_.schema;
  Executor subqueries(context);  // Runs the WHERE's subqueries.
  ExprNodePtr compiled;
  if (predicate) {
    FLOE_ASSIGN_OR_RETURN(compiled, CompileExpression(*predicate, ColumnLayout::Of(columns, nullptr)));
  }
  SqlCatalog::RowSelector select = [&](const formats::ColumnBatch& batch) -> Result<std::vector<uint8_t>> {
    if (batch.columns.size() != columns.size()) {
      return Conflict("the table has {} columns now, the statement saw {}; run it again", batch.columns.size(), columns.size());
    }
    std::vector<uint8_t> flags(static_cast<size_t>(batch.num_rows), compiled ? 0 : 1);
    if (!compiled || batch.num_rows == 0) return flags;
    DataChunk chunk;
    chunk.rows = batch.num_rows;
    for (size_t c = 0; c < columns.size(); ++c) {
      FLOE_ASSIGN_OR_RETURN(VectorPtr v, FromStorage(formats::ColumnVector(batch.columns[c]), columns[c].type));
      chunk.columns.push_back(std::move(v));
    }
    FLOE_ASSIGN_OR_RETURN(std::vector<uint32_t> rows, SelectTrueRows(*compiled, chunk, context));
    for (uint32_t r : rows) flags[r] = 1;
    return flags;
  };
  return writable_->DeleteRows(bound.target, *pushed, exact, select);
}

Result<StatementSummary> SqlSession::RunWrite(const ast::Statement& statement, BoundStatement& bound, std::string_view sql,
                                              const QueryOptions& query_options) {
  using ast::StatementKind;
  StatementSummary summary;
  if (writable_ == nullptr) return NotImplemented("{}: this session's catalog is read-only", bound.description);
  SqlCatalog& catalog = *writable_;
  const QualifiedTableName& target = bound.target;
  auto at_name = [&](const Error& e) {
    return std::unexpected(PointAt(e, sql, statement.name_location >= 0 ? statement.name_location : statement.location));
  };

  // Runs `plan` and appends its rows to `table` (columns `targets`, by index into the table).
  auto insert = [&](LogicalPtr plan, const CatalogTable& table, const std::vector<size_t>& targets) -> Result<int64_t> {
    // Cast the query's columns to the table's types.
    auto project = std::make_unique<LogicalProject>();
    for (size_t i = 0; i < targets.size(); ++i) {
      const OutputColumn& c = plan->output[i];
      const TableColumn& column = table.columns[targets[i]];
      auto ref = MakeColumn(c.id, c.type, c.name);
      project->expressions.push_back(c.type == column.type ? std::move(ref) : MakeCast(std::move(ref), column.type));
      if (options_.time_zone)
        FLOE_RETURN_IF_ERROR(ApplySessionTimeZone(project->expressions.back(), *options_.time_zone));
      project->output.push_back(OutputColumn{c.id, column.name, column.type});
    }
    // Ids must stay unique: give the projection fresh ids above the plan's.
    int32_t next_id = 1 << 30;
    for (auto& o : project->output) o.id = ColumnId(next_id++);
    project->children.push_back(std::move(plan));
    FLOE_ASSIGN_OR_RETURN(LogicalPtr optimized, Optimize(std::move(project)));
    QueryContext context(catalog_, query_options, sql);
    Executor executor(context);
    FLOE_ASSIGN_OR_RETURN(Materialized rows, executor.Materialize(*optimized, nullptr));
    std::vector<formats::Field> fields;
    for (const auto& column : table.columns) {
      FLOE_ASSIGN_OR_RETURN(auto type, StorageDataType(column.type));
      fields.push_back(formats::Field{column.name, column.field_id > 0 ? column.field_id : -1, column.nullable, std::move(type)});
    }
    std::vector<formats::ColumnBatch> batches;
    int64_t total = 0;
    for (const auto& chunk : rows.chunks) {
      formats::ColumnBatch batch;
      batch.fields = fields;
      batch.num_rows = chunk.rows;
      for (size_t j = 0; j < table.columns.size(); ++j) {
        const TableColumn& column = table.columns[j];
        auto position = std::find(targets.begin(), targets.end(), j);
        VectorPtr values = position == targets.end() ? ConstantVector(Value::Null(column.type), chunk.rows)
                                                     : chunk.columns[static_cast<size_t>(position - targets.begin())];
        if (!column.nullable && values->NullCount() > 0) {
          return InvalidArgument("NULL value not allowed for NOT NULL column: {}", column.name);
        }
        FLOE_ASSIGN_OR_RETURN(auto stored, ToStorage(*values, column.type));
        batch.columns.push_back(std::move(stored));
      }
      total += chunk.rows;
      batches.push_back(std::move(batch));
    }
    if (batches.empty()) return int64_t{0};
    auto appended = catalog.AppendRows(table.name, std::move(batches));
    if (!appended.has_value()) return std::unexpected(at_name(appended.error()).error());
    return total;
  };

  switch (statement.kind) {
    case StatementKind::kCreateSchema: {
      auto schemas = catalog.SchemaNames(target.catalog);
      if (schemas.has_value() && std::find(schemas->begin(), schemas->end(), target.schema) != schemas->end()) {
        if (statement.if_not_exists) {
          summary.message = "CREATE SCHEMA";
          return summary;
        }
        return at_name(Error(ErrorKind::kAlreadyExists, fmt::format("Schema '{}.{}' already exists", target.catalog, target.schema)));
      }
      auto created = catalog.CreateSchema(target.catalog, target.schema);
      if (!created.has_value()) return at_name(created.error());
      summary.message = "CREATE SCHEMA";
      return summary;
    }
    case StatementKind::kDropSchema: {
      auto dropped = catalog.DropSchema(target.catalog, target.schema);
      if (!dropped.has_value() && !(statement.if_exists && dropped.error().kind() == ErrorKind::kNotFound)) return at_name(dropped.error());
      summary.message = "DROP SCHEMA";
      return summary;
    }
    case StatementKind::kCreateTable:
    case StatementKind::kCreateTableAs: {
      if (catalog.GetTable(target, TableVersion{}).has_value()) {
        summary.message = "CREATE TABLE";  // IF NOT EXISTS (the binder rejected the rest).
        return summary;
      }
      TableDefinition definition;
      definition.name = target;
      LogicalPtr plan;
      if (statement.kind == StatementKind::kCreateTable) {
        FLOE_ASSIGN_OR_RETURN(definition.identifier_columns, PrimaryKeyOf(statement, sql));
        for (const auto& column : statement.columns) {
          FLOE_ASSIGN_OR_RETURN(SqlType type, TypeFromName(column.type));
          bool key = std::find(definition.identifier_columns.begin(), definition.identifier_columns.end(), column.name) !=
                     definition.identifier_columns.end();
          definition.columns.push_back(TableColumn{column.name, type, !column.not_null && !key, 0});
        }
        if (statement.unique_ignored) {
          summary.warnings.push_back("UNIQUE is not enforced: Iceberg tables have no uniqueness constraints, so it was ignored");
        }
      } else {
        plan = std::move(bound.plan);
        for (const auto& c : plan->output) {
          if (c.type.IsUnknown()) return SqlError(ErrorKind::kInvalidArgument, sql, statement.location, fmt::format("Column type is unknown: {}", c.name));
          definition.columns.push_back(TableColumn{c.name, c.type, true, 0});
        }
      }
      for (const auto& t : statement.partitioned_by) definition.partition_by.push_back(TransformText(*t));
      auto created = catalog.CreateTable(definition);
      if (!created.has_value()) return at_name(created.error());
      summary.message = "CREATE TABLE";
      if (plan) {
        FLOE_ASSIGN_OR_RETURN(auto table, catalog.GetTable(target, TableVersion{}));
        std::vector<size_t> targets;
        for (size_t i = 0; i < table->columns.size(); ++i) targets.push_back(i);
        FLOE_ASSIGN_OR_RETURN(int64_t rows, insert(std::move(plan), *table, targets));
        summary.update_count = rows;
        summary.message = RowsMessage("CREATE TABLE", rows);
      }
      return summary;
    }
    case StatementKind::kInsert: {
      FLOE_ASSIGN_OR_RETURN(auto table, catalog.GetTable(target, TableVersion{}));
      std::vector<size_t> targets;
      if (statement.insert_columns.empty()) {
        for (size_t i = 0; i < table->columns.size(); ++i) targets.push_back(i);
      } else {
        for (const auto& name : statement.insert_columns) {
          for (size_t i = 0; i < table->columns.size(); ++i) {
            if (table->columns[i].name == name) targets.push_back(i);
          }
        }
      }
      FLOE_ASSIGN_OR_RETURN(int64_t rows, insert(std::move(bound.plan), *table, targets));
      summary.update_count = rows;
      summary.message = RowsMessage("INSERT", rows);
      return summary;
    }
    case StatementKind::kUpdate: {
      auto rows = RunUpdate(bound, sql, query_options);
      if (!rows) return at_name(rows.error());
      summary.update_count = *rows;
      summary.message = RowsMessage("UPDATE", *rows);
      return summary;
    }
    case StatementKind::kMerge: {
      auto rows = RunMerge(bound, sql, query_options);
      if (!rows) return at_name(rows.error());
      summary.update_count = *rows;
      summary.message = RowsMessage(statement.update_from ? "UPDATE" : "MERGE", *rows);
      return summary;
    }
    case StatementKind::kDelete: {
      FLOE_ASSIGN_OR_RETURN(int64_t rows, RunDelete(bound, sql, query_options));
      summary.update_count = rows;
      summary.message = RowsMessage("DELETE", rows);
      return summary;
    }
    case StatementKind::kDropTable: {
      auto dropped = catalog.DropTable(target);
      if (!dropped.has_value() && !(statement.if_exists && dropped.error().kind() == ErrorKind::kNotFound)) return at_name(dropped.error());
      summary.message = "DROP TABLE";
      return summary;
    }
    case StatementKind::kAlterTable: {
      TableChange change;
      switch (statement.alter_action) {
        case ast::AlterAction::kAddColumn: {
          const auto& column = statement.columns.at(0);
          FLOE_ASSIGN_OR_RETURN(SqlType type, TypeFromName(column.type));
          change.kind = TableChange::Kind::kAddColumn;
          change.column = TableColumn{column.name, type, !column.not_null, 0};
          break;
        }
        case ast::AlterAction::kDropColumn:
          change.kind = TableChange::Kind::kDropColumn;
          change.name = statement.column_name;
          break;
        case ast::AlterAction::kRenameColumn:
          change.kind = TableChange::Kind::kRenameColumn;
          change.name = statement.column_name;
          change.new_name = statement.new_name;
          break;
      }
      auto altered = catalog.AlterTable(target, change);
      if (!altered.has_value()) return at_name(altered.error());
      summary.message = "ALTER TABLE";
      return summary;
    }
    case StatementKind::kCreateView: {
      auto created = catalog.CreateView(ViewDefinition{*bound.view, statement.or_replace});
      if (!created.has_value()) return at_name(created.error());
      summary.message = "CREATE VIEW";
      return summary;
    }
    case StatementKind::kDropView: {
      auto dropped = catalog.DropView(target);
      if (!dropped.has_value() && !(statement.if_exists && dropped.error().kind() == ErrorKind::kNotFound))
        return at_name(dropped.error());
      summary.message = "DROP VIEW";
      return summary;
    }
    case StatementKind::kAnalyze: {
      auto done = catalog.ExecuteProcedure(target, "analyze", {});
      if (!done.has_value()) return at_name(done.error());
      summary.message = *done;
      return summary;
    }
    case StatementKind::kAlterTableExecute: {
      if (statement.where) {
        return SqlError(ErrorKind::kNotImplemented, sql, statement.where->location, "optimize ... WHERE is not supported yet");
      }
      static const std::map<std::string, std::string> kFirstArgument = {{"optimize", "file_size_threshold"},
                                                                       {"expire_snapshots", "retention_threshold"},
                                                                       {"remove_orphan_files", "retention_threshold"}};
      std::map<std::string, Value> arguments;
      for (const auto& argument : statement.procedure_args) {
        auto value = LiteralValue(*argument.value);
        if (!value.has_value()) return SqlError(ErrorKind::kInvalidArgument, sql, argument.value->location, value.error().message());
        std::string name = argument.name;
        if (name.empty()) {
          auto it = kFirstArgument.find(statement.procedure);
          if (it == kFirstArgument.end() || arguments.contains(it->second)) {
            return SqlError(ErrorKind::kInvalidArgument, sql, argument.value->location, "Too many arguments for procedure " + statement.procedure);
          }
          name = it->second;
        }
        arguments[name] = std::move(*value);
      }
      auto done = catalog.ExecuteProcedure(target, statement.procedure, arguments);
      if (!done.has_value()) return at_name(done.error());
      summary.message = *done;
      return summary;
    }
    default:
      return NotImplemented("{}: not supported", bound.description);
  }
}

}  // namespace floe::sql

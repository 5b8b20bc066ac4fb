#include "sql/sql_session.h"

#include "sql/constant_executor.h"
#include "sql/optimizer.h"
#include "sql/parser.h"

namespace floe::sql {

Result<std::vector<StatementResult>> SqlSession::Run(std::string_view sql) {
  FLOE_ASSIGN_OR_RETURN(auto statements, Parse(sql));
  std::vector<StatementResult> out;
  for (const auto& statement : statements) {
    FLOE_ASSIGN_OR_RETURN(auto result, RunOne(*statement, sql));
    out.push_back(std::move(result));
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

Result<StatementResult> SqlSession::RunOne(const ast::Statement& statement, std::string_view sql) {
  FLOE_ASSIGN_OR_RETURN(auto bound, Bind(statement, sql, catalog_, options_));
  StatementResult result;
  if (bound.explain) {
    if (bound.analyze) return NotImplemented("EXPLAIN ANALYZE needs the executor, which is not built yet");
    if (!bound.plan) return NotImplemented("EXPLAIN of this statement is not supported");
    FLOE_ASSIGN_OR_RETURN(auto plan, Optimize(std::move(bound.plan)));
    result.column_names = {"Query Plan"};
    result.column_types = {SqlType::Varchar()};
    std::string text = ExplainPlan(*plan);
    if (!text.empty() && text.back() == '\n') text.pop_back();
    result.rows.push_back({Value::String(SqlType::Varchar(), std::move(text))});
    return result;
  }
  if (bound.kind == ast::StatementKind::kUse) {
    options_.catalog = bound.target.catalog;
    options_.schema = bound.target.schema;
    result.message = bound.description;
    return result;
  }
  if (bound.parameter_count > 0) {
    return InvalidArgument("statement has {} parameter{} but no values were given", bound.parameter_count,
                           bound.parameter_count == 1 ? "" : "s");
  }
  bool reads_rows = bound.kind == ast::StatementKind::kQuery || bound.kind == ast::StatementKind::kShowCatalogs ||
                    bound.kind == ast::StatementKind::kShowSchemas || bound.kind == ast::StatementKind::kShowTables ||
                    bound.kind == ast::StatementKind::kShowColumns;
  if (!reads_rows) return NotImplemented("{}: execution is not built yet", bound.description);
  FLOE_ASSIGN_OR_RETURN(auto plan, Optimize(std::move(bound.plan)));
  FLOE_ASSIGN_OR_RETURN(result.rows, ExecuteConstantPlan(*plan));
  for (const auto& column : plan->output) {
    result.column_names.push_back(column.name);
    result.column_types.push_back(column.type);
  }
  return result;
}

}  // namespace floe::sql

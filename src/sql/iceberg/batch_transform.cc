#include "sql/iceberg/batch_transform.h"

#include <set>

#include <fmt/format.h>

#include "formats/json/iceberg_fields.h"
#include "sql/binder/binder.h"
#include "sql/execution/executor.h"
#include "sql/iceberg/iceberg_types.h"
#include "sql/iceberg/scan_columns.h"
#include "sql/planner/optimizer.h"
#include "sql/parser/parser.h"
#include "sql/types/sql_error.h"

namespace floe::sql::iceberg_sql {
namespace {

const QualifiedTableName kEventsTable{"floe", "default", "events"};

// Serves the one batch being transformed as the table `events`.
class BatchScan final : public TableScan {
 public:
  BatchScan(const formats::ColumnBatch* batch, std::vector<int> columns, std::vector<formats::DataType> types)
      : batch_(batch), columns_(std::move(columns)), types_(std::move(types)) {}

  size_t split_count() const override { return 1; }
  Status ReadSplit(size_t, const std::function<Status(formats::ColumnBatch&)>& sink) override {
    formats::ColumnBatch out;
    out.num_rows = batch_->num_rows;
    for (size_t c = 0; c < columns_.size(); ++c) {
      const formats::ColumnVector& column = batch_->columns[static_cast<size_t>(columns_[c])];
      FLOE_ASSIGN_OR_RETURN(formats::ColumnVector converted, ConvertVector(column, types_[c]));
      out.fields.push_back({batch_->fields[static_cast<size_t>(columns_[c])].name, -1, true, types_[c]});
      out.columns.push_back(std::move(converted));
    }
    return sink(out);
  }
  ScanStats stats() const override { return {}; }
  std::string Describe() const override { return "events batch"; }

 private:
  const formats::ColumnBatch* batch_;
  std::vector<int> columns_;
  std::vector<formats::DataType> types_;
};

// A catalog of one table, `events`, whose rows are the batch of the current Apply.
class EventsCatalog final : public SqlCatalog {
 public:
  explicit EventsCatalog(std::shared_ptr<const CatalogTable> table) : table_(std::move(table)) {}

  void set_batch(const formats::ColumnBatch* batch) { batch_ = batch; }

  std::vector<std::string> CatalogNames() const override { return {kEventsTable.catalog}; }
  Result<std::vector<std::string>> SchemaNames(std::string_view) const override {
    return std::vector<std::string>{kEventsTable.schema};
  }
  Result<std::vector<std::string>> TableNames(std::string_view, std::string_view) const override {
    return std::vector<std::string>{kEventsTable.table};
  }
  Result<std::shared_ptr<const CatalogTable>> GetTable(const QualifiedTableName& name, const TableVersion& version) const override {
    if (!(name == kEventsTable)) return CodedError(ErrorCode::kNoSuchTable, "Table '{}' does not exist: a transform reads only 'events'", name.table);
    if (version.kind != TableVersion::Kind::kCurrent) return InvalidArgument("a transform cannot time travel");
    return table_;
  }
  Result<std::shared_ptr<const CatalogTable>> GetTableAt(std::string_view location, const TableVersion&) const override {
    return NotFound("a transform reads only 'events', not '{}'", location);
  }
  Result<std::unique_ptr<TableScan>> OpenScan(const ScanRequest& request) const override {
    if (batch_ == nullptr) return Internal("transform scan without a batch");
    std::vector<formats::DataType> types;
    for (int c : request.columns) {
      if (c < 0 || static_cast<size_t>(c) >= batch_->columns.size()) return Internal("events column {} out of range", c);
      types.push_back(BatchTypeFor(table_->columns[static_cast<size_t>(c)].type));
    }
    return std::unique_ptr<TableScan>(std::make_unique<BatchScan>(batch_, request.columns, std::move(types)));
  }

 private:
  std::shared_ptr<const CatalogTable> table_;
  const formats::ColumnBatch* batch_ = nullptr;
};

// Where a transform may not go: the first operator or expression that makes rows depend on other
// rows, named for the error.
std::string Disallowed(const BoundExpr& e) {
  if (e.kind == BoundKind::kSubquery) return "a subquery";
  if (e.kind == BoundKind::kParameter) return "a parameter";
  for (const auto& a : e.args) {
    if (a) {
      if (std::string why = Disallowed(*a); !why.empty()) return why;
    }
  }
  return "";
}

std::string Disallowed(const LogicalOperator& op) {
  switch (op.kind) {
    case LogicalKind::kScan:
      if (!op.As<LogicalScan>().metadata_table.empty()) return "a metadata table";
      return "";
    case LogicalKind::kFilter:
      if (std::string why = Disallowed(*op.As<LogicalFilter>().predicate); !why.empty()) return why;
      break;
    case LogicalKind::kProject:
      for (const auto& e : op.As<LogicalProject>().expressions) {
        if (std::string why = Disallowed(*e); !why.empty()) return why;
      }
      break;
    case LogicalKind::kAggregate: return "an aggregate or GROUP BY";
    case LogicalKind::kWindow: return "a window function";
    case LogicalKind::kJoin: return "a join";
    case LogicalKind::kSort:
    case LogicalKind::kTopN: return "ORDER BY";
    case LogicalKind::kLimit: return "LIMIT or OFFSET";
    case LogicalKind::kDistinct: return "DISTINCT";
    case LogicalKind::kSetOp: return "UNION, INTERSECT or EXCEPT";
    case LogicalKind::kRecursiveCte:
    case LogicalKind::kWorkingTable:
      return "WITH RECURSIVE";
    case LogicalKind::kValues: return "VALUES";
    case LogicalKind::kEmpty: return "";
    case LogicalKind::kUnnest:
      return "UNNEST";
    case LogicalKind::kLateralJoin:
      return "LATERAL";
  }
  for (const auto& child : op.children) {
    if (std::string why = Disallowed(*child); !why.empty()) return why;
  }
  return "";
}

bool ReadsEvents(const LogicalOperator& op) {
  if (op.kind == LogicalKind::kScan) return true;
  for (const auto& child : op.children) {
    if (ReadsEvents(*child)) return true;
  }
  return false;
}

}  // namespace

struct BatchTransform::Impl {
  std::string sql;
  std::unique_ptr<EventsCatalog> catalog;
  LogicalPtr plan;
  std::vector<SqlType> output_types;
  iceberg::Schema output_schema;
  std::vector<formats::Field> output_fields;

  // Runs the plan over `events` as one unit: fails if any row fails.
  Result<std::vector<formats::ColumnBatch>> Run(const formats::ColumnBatch& events) {
    catalog->set_batch(&events);
    QueryOptions options;
    options.threads = 1;
    QueryContext context(*catalog, options, sql);
    Executor executor(context);
    std::vector<formats::ColumnBatch> out;
    Status status = executor.Run(*plan, [&](DataChunk&& chunk) -> Status {
      if (chunk.rows == 0) return OkStatus();
      formats::ColumnBatch batch;
      batch.fields = output_fields;
      batch.num_rows = chunk.rows;
      for (size_t c = 0; c < chunk.columns.size(); ++c) {
        FLOE_ASSIGN_OR_RETURN(formats::ColumnVector stored, ToStorage(*chunk.columns[c], output_types[c]));
        FLOE_ASSIGN_OR_RETURN(formats::ColumnVector shaped, ConvertVector(std::move(stored), output_fields[c].type));
        batch.columns.push_back(std::move(shaped));
      }
      out.push_back(std::move(batch));
      return OkStatus();
    });
    catalog->set_batch(nullptr);
    if (!status) return std::unexpected(status.error());
    return out;
  }

  // Run, and when it fails, the halves separately, down to the rows that fail on their own.
  Status RunIsolating(const formats::ColumnBatch& events, int64_t first_row, std::vector<formats::ColumnBatch>* out,
                      std::vector<RowFailure>* failures) {
    auto result = Run(events);
    if (result) {
      for (auto& b : *result) out->push_back(std::move(b));
      return OkStatus();
    }
    ErrorKind kind = result.error().kind();
    // Limits and bugs are not a row's fault: fail the batch.
    if (kind == ErrorKind::kResourceExhausted || kind == ErrorKind::kInternal || kind == ErrorKind::kNotImplemented) {
      return std::unexpected(result.error());
    }
    if (events.num_rows <= 1) {
      if (events.num_rows == 1) failures->push_back({first_row, result.error().message()});
      return OkStatus();
    }
    int64_t half = events.num_rows / 2;
    FLOE_RETURN_IF_ERROR(RunIsolating(formats::SliceBatch(events, 0, half), first_row, out, failures));
    return RunIsolating(formats::SliceBatch(events, half, events.num_rows - half), first_row + half, out, failures);
  }
};

BatchTransform::BatchTransform() : impl_(std::make_unique<Impl>()) {}
BatchTransform::~BatchTransform() = default;

Result<std::unique_ptr<BatchTransform>> BatchTransform::Compile(std::string_view sql, const iceberg::Schema& events) {
  std::unique_ptr<BatchTransform> transform(new BatchTransform());
  Impl& impl = *transform->impl_;
  impl.sql = std::string(sql);
  auto table = std::make_shared<CatalogTable>();
  table->name = kEventsTable;
  for (const iceberg::NestedField& f : events.fields()) {
    FLOE_ASSIGN_OR_RETURN_CTX(SqlType type, SqlTypeFor(*f.type), fmt::format("event field {}", f.name));
    table->columns.push_back({f.name, type, true, f.id});
  }
  impl.catalog = std::make_unique<EventsCatalog>(table);

  FLOE_ASSIGN_OR_RETURN(auto statements, Parse(impl.sql));
  auto fail = [&](int location, std::string message) -> Error {
    return SqlError(ErrorKind::kInvalidArgument, impl.sql, std::max(location, 0), message).error();
  };
  if (statements.size() != 1 || statements[0]->kind != ast::StatementKind::kQuery) {
    return std::unexpected(fail(statements.empty() ? 0 : statements[0]->location,
                                "a transform is one query: SELECT <expressions> FROM events [WHERE <condition>]"));
  }
  FLOE_ASSIGN_OR_RETURN(BoundStatement bound, Bind(*statements[0], impl.sql, *impl.catalog));
  if (!bound.plan) return std::unexpected(fail(statements[0]->location, "a transform is a SELECT"));
  if (std::string why = Disallowed(*bound.plan); !why.empty()) {
    return std::unexpected(fail(statements[0]->location,
                                fmt::format("a transform cannot use {}: each event must map to at most one row on its own", why)));
  }
  if (!ReadsEvents(*bound.plan)) {
    return std::unexpected(fail(statements[0]->location, "a transform must read FROM events"));
  }
  FLOE_ASSIGN_OR_RETURN(impl.plan, Optimize(std::move(bound.plan)));

  std::vector<iceberg::NestedField> fields;
  std::set<std::string> names;
  auto next_id = static_cast<int32_t>(impl.plan->output.size()) + 1;
  for (size_t i = 0; i < impl.plan->output.size(); ++i) {
    const OutputColumn& column = impl.plan->output[i];
    if (column.name.empty() || column.name == "_col" + std::to_string(i)) {
      return std::unexpected(fail(statements[0]->location, fmt::format("output column {} needs a name: add AS <name>", i + 1)));
    }
    if (!names.insert(column.name).second) {
      return std::unexpected(fail(statements[0]->location, fmt::format("output column '{}' appears twice", column.name)));
    }
    iceberg::NestedField f;
    f.id = static_cast<int32_t>(i) + 1;
    f.name = column.name;
    f.required = false;
    FLOE_ASSIGN_OR_RETURN_CTX(f.type, IcebergTypeFor(column.type, &next_id), fmt::format("output column {}", column.name));
    fields.push_back(std::move(f));
    impl.output_types.push_back(column.type);
  }
  impl.output_schema = iceberg::Schema(0, std::move(fields));
  FLOE_RETURN_IF_ERROR(impl.output_schema.Validate());
  FLOE_ASSIGN_OR_RETURN(impl.output_fields, formats::BatchFieldsFromSchema(impl.output_schema));
  return transform;
}

const std::string& BatchTransform::sql() const { return impl_->sql; }
const iceberg::Schema& BatchTransform::output_schema() const { return impl_->output_schema; }
const std::vector<formats::Field>& BatchTransform::output_fields() const { return impl_->output_fields; }

Result<std::vector<formats::ColumnBatch>> BatchTransform::Apply(const formats::ColumnBatch& events,
                                                                std::vector<RowFailure>* failures) {
  std::vector<formats::ColumnBatch> out;
  if (events.num_rows == 0) return out;
  std::vector<RowFailure> found;
  FLOE_RETURN_IF_ERROR(impl_->RunIsolating(events, 0, &out, &found));
  if (failures != nullptr) failures->insert(failures->end(), found.begin(), found.end());
  return out;
}

}  // namespace floe::sql::iceberg_sql

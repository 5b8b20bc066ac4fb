// Sources that need no storage: VALUES rows, and a materialized result read chunk by chunk.
#include "sql/execution/physical_operator.h"

namespace floe::sql {
namespace {

class MaterializedSource final : public Source {
 public:
  explicit MaterializedSource(Materialized result) : result_(std::move(result)) {}

  size_t morsel_count() const override { return result_.chunks.size(); }
  Status ReadMorsel(size_t index, QueryContext&, const ChunkCallback& out) override {
    DataChunk chunk = result_.chunks[index];  // Shares the vectors.
    if (chunk.rows == 0 && !chunk.columns.empty()) return OkStatus();
    return out(std::move(chunk));
  }
  bool ordered() const override { return result_.ordered; }

 private:
  Materialized result_;
};

}  // namespace

std::unique_ptr<Source> MakeMaterializedSource(Materialized result) { return std::make_unique<MaterializedSource>(std::move(result)); }

Result<Materialized> EvaluateValues(const LogicalValues& values, const std::map<ColumnId, Value>* outer,
                                    QueryContext& context) {
  ColumnLayout layout;
  layout.outer = outer;
  DataChunk one;
  one.rows = 1;
  std::vector<MutableVectorPtr> columns;
  for (const auto& c : values.output) {
    if (!CanCarry(c.type))
      return NotImplemented("VALUES of type {} are not supported by the executor yet", c.type.ToString());
    columns.push_back(NewVector(c.type, static_cast<int64_t>(values.rows.size())));
  }
  for (const auto& row : values.rows) {
    for (size_t i = 0; i < row.size() && i < columns.size(); ++i) {
      FLOE_ASSIGN_OR_RETURN(auto node, CompileExpression(*row[i], layout));
      FLOE_ASSIGN_OR_RETURN(VectorPtr v, node->Evaluate(one, context));
      AppendFrom(*columns[i], *v, 0);
    }
  }
  Materialized out;
  DataChunk chunk;
  chunk.rows = static_cast<int64_t>(values.rows.size());
  for (auto& c : columns) chunk.columns.push_back(std::move(c));
  if (chunk.rows > 0) out.chunks.push_back(std::move(chunk));
  out.ordered = true;
  return out;
}

}  // namespace floe::sql

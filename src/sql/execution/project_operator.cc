// Project: computes one vector per expression; column references pass through uncopied.
#include "sql/execution/physical_operator.h"

namespace floe::sql {
namespace {

class ProjectOperator final : public StreamOperator {
 public:
  explicit ProjectOperator(std::vector<ExprNodePtr> expressions) : expressions_(std::move(expressions)) {}

  Status Process(DataChunk&& chunk, QueryContext& context, const ChunkCallback& next) const override {
    DataChunk out;
    out.rows = chunk.rows;
    for (const auto& e : expressions_) {
      FLOE_ASSIGN_OR_RETURN(VectorPtr v, e->Evaluate(chunk, context));
      out.columns.push_back(std::move(v));
    }
    return next(std::move(out));
  }

 private:
  std::vector<ExprNodePtr> expressions_;
};

class SelectColumns final : public StreamOperator {
 public:
  explicit SelectColumns(std::vector<size_t> positions) : positions_(std::move(positions)) {}

  Status Process(DataChunk&& chunk, QueryContext&, const ChunkCallback& next) const override {
    DataChunk out;
    out.rows = chunk.rows;
    for (size_t p : positions_) out.columns.push_back(chunk.columns[p]);
    return next(std::move(out));
  }

 private:
  std::vector<size_t> positions_;
};

}  // namespace

Result<std::unique_ptr<StreamOperator>> MakeProject(const std::vector<BoundExprPtr>& expressions, const ColumnLayout& layout) {
  std::vector<ExprNodePtr> compiled;
  for (const auto& e : expressions) {
    FLOE_ASSIGN_OR_RETURN(auto node, CompileExpression(*e, layout));
    compiled.push_back(std::move(node));
  }
  return std::unique_ptr<StreamOperator>(std::make_unique<ProjectOperator>(std::move(compiled)));
}

std::unique_ptr<StreamOperator> MakeSelectColumns(std::vector<size_t> positions) {
  return std::make_unique<SelectColumns>(std::move(positions));
}

}  // namespace floe::sql

// LATERAL: the right side is a correlated subquery over the left side's rows. It runs once per
// distinct values of the left columns it reads (each run's rows are kept for the next left row
// with the same values), and each left row is paired with every row its run gives.
#include <unordered_map>

#include "sql/execution/executor.h"
#include "sql/execution/key_table.h"

namespace floe::sql {
namespace {

// Runs remembered for repeated left values; past this many distinct values, runs are not kept
// (a left side of unique keys would only fill memory).
constexpr size_t kMaxRememberedRuns = 4096;

}  // namespace

Result<Materialized> Executor::LateralJoin(const LogicalLateralJoin& op, const std::map<ColumnId, Value>* outer) {
  const LogicalOperator& left_plan = *op.children[0];
  const LogicalOperator& right_plan = *op.children[1];
  std::vector<size_t> positions;  // Of the correlated columns in the left output.
  for (ColumnId id : op.correlated) {
    size_t at = 0;
    while (at < left_plan.output.size() && left_plan.output[at].id != id) ++at;
    if (at == left_plan.output.size()) return Internal("LATERAL reads column #{} its left side lacks", id.value());
    positions.push_back(at);
  }
  FLOE_ASSIGN_OR_RETURN(Materialized left, Materialize(left_plan, outer));

  std::map<ColumnId, Value> bound = outer != nullptr ? *outer : std::map<ColumnId, Value>{};
  std::unordered_map<std::string, Materialized> runs;
  MemoryReservation reservation(context_.memory(), "LATERAL");
  int64_t held_bytes = 0;
  Materialized out;
  std::string key;
  for (const DataChunk& chunk : left.chunks) {
    std::vector<const ColumnVector*> correlated;
    for (size_t at : positions) correlated.push_back(chunk.columns[at].get());
    std::vector<uint32_t> unmatched;  // Left rows a LEFT join keeps with NULLs.
    for (int64_t row = 0; row < chunk.rows; ++row) {
      FLOE_RETURN_IF_ERROR(context_.CheckInterrupt());
      KeyEncoder::EncodeRow(correlated, row, &key);
      auto found = runs.find(key);
      Materialized run;
      if (found != runs.end()) {
        run = found->second;  // Chunks share their vectors.
      } else {
        for (size_t k = 0; k < positions.size(); ++k) {
          const OutputColumn& column = left_plan.output[positions[k]];
          bound[column.id] = GetValue(*correlated[k], column.type, row);
        }
        FLOE_ASSIGN_OR_RETURN(run, Materialize(right_plan, &bound));
        if (runs.size() < kMaxRememberedRuns) {
          for (const DataChunk& c : run.chunks) held_bytes += c.Bytes();
          runs.emplace(key, run);
        }
      }
      if (run.rows() == 0) {
        if (op.join_type == LogicalJoinType::kLeft) unmatched.push_back(static_cast<uint32_t>(row));
        continue;
      }
      for (const DataChunk& right : run.chunks) {
        if (right.rows == 0) continue;
        DataChunk joined =
            GatherChunk(chunk, std::vector<uint32_t>(static_cast<size_t>(right.rows), static_cast<uint32_t>(row)));
        joined.columns.insert(joined.columns.end(), right.columns.begin(), right.columns.end());
        held_bytes += joined.Bytes();
        out.chunks.push_back(std::move(joined));
      }
      FLOE_RETURN_IF_ERROR(reservation.Resize(held_bytes));
    }
    if (!unmatched.empty()) {
      DataChunk kept = GatherChunk(chunk, unmatched);
      for (const OutputColumn& column : right_plan.output) {
        kept.columns.push_back(ConstantVector(Value::Null(column.type), kept.rows));
      }
      held_bytes += kept.Bytes();
      out.chunks.push_back(std::move(kept));
      FLOE_RETURN_IF_ERROR(reservation.Resize(held_bytes));
    }
  }
  return out;
}

}  // namespace floe::sql

// UNION, INTERSECT and EXCEPT, with and without ALL, over two materialized inputs whose
// columns match by position. Rows are compared by their key encoding (NULLs equal). For ALL,
// a row appears min(l, r) times in INTERSECT and max(l - r, 0) times in EXCEPT.
#include "sql/execution/key_table.h"
#include "sql/execution/physical_operator.h"

namespace floe::sql {

Result<Materialized> ExecuteSetOperation(const LogicalSetOp& node, Materialized left, Materialized right,
                                         QueryContext& context) {
  Materialized out;
  if (node.set_op == LogicalSetOpType::kUnion && node.set_all) {
    out.chunks = std::move(left.chunks);
    for (auto& c : right.chunks) out.chunks.push_back(std::move(c));
    return out;
  }
  std::vector<SqlType> types;
  for (const auto& c : node.output) types.push_back(c.type);
  KeyTable table;
  std::vector<int64_t> left_count, right_count;
  MemoryReservation reservation(context.memory(), "SetOperation");
  KeyEncoder encoder;
  auto add = [&](const Materialized& input, std::vector<int64_t>& counts, bool insert) -> Status {
    for (const auto& chunk : input.chunks) {
      std::vector<const ColumnVector*> columns;
      for (const auto& c : chunk.columns) columns.push_back(c.get());
      encoder.Encode(columns, chunk.rows);
      for (int64_t i = 0; i < chunk.rows; ++i) {
        if (!insert) {
          int64_t id = table.Find(encoder.key(i), encoder.hash(i));
          if (id >= 0) ++right_count[static_cast<size_t>(id)];
          continue;
        }
        bool inserted;
        uint32_t id = table.FindOrInsert(encoder.key(i), encoder.hash(i), inserted);
        if (inserted) {
          left_count.push_back(0);
          right_count.push_back(0);
        }
        ++counts[id];
      }
      FLOE_RETURN_IF_ERROR(reservation.Resize(table.Bytes()));
      FLOE_RETURN_IF_ERROR(context.CheckInterrupt());
    }
    return OkStatus();
  };
  FLOE_RETURN_IF_ERROR(add(left, left_count, true));
  FLOE_RETURN_IF_ERROR(add(right, right_count, node.set_op == LogicalSetOpType::kUnion));
  std::vector<uint32_t> rows;
  for (uint32_t id = 0; id < table.size(); ++id) {
    int64_t l = left_count[id], r = right_count[id], copies = 0;
    switch (node.set_op) {
      case LogicalSetOpType::kUnion:
        copies = 1;
        break;
      case LogicalSetOpType::kIntersect:
        copies = node.set_all ? std::min(l, r) : (l > 0 && r > 0 ? 1 : 0);
        break;
      case LogicalSetOpType::kExcept:
        copies = node.set_all ? std::max<int64_t>(l - r, 0) : (l > 0 && r == 0 ? 1 : 0);
        break;
    }
    for (int64_t k = 0; k < copies; ++k) rows.push_back(id);
  }
  std::vector<VectorPtr> keys = DecodeKeys(table, types);
  DataChunk all;
  all.rows = static_cast<int64_t>(table.size());
  all.columns = std::move(keys);
  DataChunk picked = GatherChunk(all, rows);
  if (picked.rows > 0) out.chunks.push_back(std::move(picked));
  return out;
}

}  // namespace floe::sql

// Window functions over a materialized input. For each call the rows are ordered by (partition
// keys, order keys); ranking and navigation functions read positions in that order, and
// aggregates run over each row's frame (ROWS, GROUPS and RANGE, with offsets or between
// unbounded ends and the current row's peers). Frames that start at the partition's first row are computed
// incrementally; others are recomputed per row. Output rows keep the input order.
#include <algorithm>
#include <numeric>

#include "sql/execution/aggregate_state.h"
#include "sql/execution/key_table.h"
#include "sql/function/scalar_evaluation.h"
#include "sql/execution/physical_operator.h"

namespace floe::sql {
namespace {

struct Frame {
  int64_t start = 0;
  int64_t end = -1;  // Inclusive; end < start is an empty frame.
};

Result<int64_t> FrameOffset(const WindowFrameBound& bound) {
  if (!bound.offset) return 0;
  auto v = bound.offset->kind == BoundKind::kConstant ? std::optional<Value>(bound.offset->As<BoundConstant>().value)
                                                      : std::nullopt;
  if (!v || v->is_null()) return InvalidArgument("Window frame offset must not be null");
  int64_t n = v->type().IsInteger() ? v->as_int() : static_cast<int64_t>(v->type().kind() == TypeKind::kDecimal ? v->as_decimal() / PowerOfTen(v->type().scale()) : static_cast<Int128>(v->as_double()));
  if (n < 0) return InvalidArgument("Window frame offset must not be negative");
  return n;
}

// RANGE frames with offsets: every row's one order key as a point on a line, so that a bound
// is a search for "key >= point - offset". Exact numbers (integers, decimals, dates and
// timestamps as microseconds) are compared as integers at a common scale; a double key or
// offset as doubles. Keys are negated under DESC, so "preceding" is always smaller.
struct RangeLine {
  bool exact = true;
  std::vector<Int128> ints;      // Per input row (exact); unused for NULL keys.
  std::vector<double> doubles;   // Per input row (inexact).
  Int128 start_int = 0, end_int = 0;
  double start_double = 0, end_double = 0;
};

// The scale an exact key or offset is written at (decimals), and its unscaled value.
struct ScaledNumber {
  Int128 unscaled = 0;
  int scale = 0;
};

constexpr int64_t kMicrosPerDay = int64_t{86400} * 1000 * 1000;

ScaledNumber ExactOf(const Value& v) {
  const SqlType& type = v.type();
  if (type.kind() == TypeKind::kDecimal) return {v.as_decimal(), type.scale()};
  if (type.kind() == TypeKind::kDate) return {static_cast<Int128>(v.as_int()) * kMicrosPerDay, 0};
  return {v.as_int(), 0};  // Integers, timestamps and day-time intervals (microseconds).
}

double DoubleOf(const Value& v) {
  const SqlType& type = v.type();
  if (type.kind() == TypeKind::kDouble || type.kind() == TypeKind::kReal) return v.as_double();
  ScaledNumber n = ExactOf(v);
  return static_cast<double>(n.unscaled) / static_cast<double>(PowerOfTen(n.scale));
}

Result<RangeLine> RangeLineOf(const WindowCall& call, const ColumnVector& key, const SqlType& key_type, int64_t rows) {
  const SqlType& k = key_type;
  bool temporal = k.kind() == TypeKind::kDate || k.kind() == TypeKind::kTimestamp || k.kind() == TypeKind::kTimestampTz;
  RangeLine line;
  std::vector<Value> offsets;
  for (const WindowFrameBound* bound : {&call.frame_start, &call.frame_end}) {
    // An offset the binder left unfolded (1 + 1) is no constant node: refused below as null.
    Value offset;
    if (!bound->offset) {
      offset = Value::Int(SqlType::Bigint(), 0);
    } else if (bound->offset->kind == BoundKind::kConstant) {
      offset = bound->offset->As<BoundConstant>().value;
    }
    if (offset.is_null()) return InvalidArgument("Window frame offset must not be null");
    bool interval = offset.type().kind() == TypeKind::kIntervalDayTime;
    if (temporal != interval && bound->offset) {
      return InvalidArgument("RANGE offset of type {} does not fit an ORDER BY key of type {}", offset.type().ToString(), k.ToString());
    }
    if ((offset.type().IsNumeric() || interval) && DoubleOf(offset) < 0) return InvalidArgument("Window frame offset must not be negative");
    line.exact &= offset.type().kind() != TypeKind::kDouble && offset.type().kind() != TypeKind::kReal;
    offsets.push_back(std::move(offset));
  }
  line.exact &= k.kind() != TypeKind::kDouble && k.kind() != TypeKind::kReal;
  bool descending = call.order_by[0].descending;
  if (!line.exact) {
    line.doubles.resize(static_cast<size_t>(rows));
    for (int64_t r = 0; r < rows; ++r) {
      if (!key.IsValid(r)) continue;
      double v = DoubleOf(GetValue(key, k, r));
      line.doubles[static_cast<size_t>(r)] = descending ? -v : v;
    }
    line.start_double = DoubleOf(offsets[0]);
    line.end_double = DoubleOf(offsets[1]);
    return line;
  }
  int scale = k.kind() == TypeKind::kDecimal ? k.scale() : 0;
  for (const Value& o : offsets) scale = std::max(scale, ExactOf(o).scale);
  auto rescale = [&](ScaledNumber n) { return n.unscaled * PowerOfTen(scale - n.scale); };
  line.ints.resize(static_cast<size_t>(rows));
  for (int64_t r = 0; r < rows; ++r) {
    if (!key.IsValid(r)) continue;
    Int128 v = rescale(ExactOf(GetValue(key, k, r)));
    line.ints[static_cast<size_t>(r)] = descending ? -v : v;
  }
  line.start_int = rescale(ExactOf(offsets[0]));
  line.end_int = rescale(ExactOf(offsets[1]));
  return line;
}

Status ComputeWindow(const WindowCall& call, const DataChunk& all, const ColumnLayout& layout, QueryContext& context, ColumnVector& out) {
  int64_t n = all.rows;
  // Evaluate keys and arguments for every row.
  std::vector<VectorPtr> partition, order, args;
  for (const auto& e : call.partition_by) {
    FLOE_ASSIGN_OR_RETURN(auto node, CompileExpression(*e, layout));
    FLOE_ASSIGN_OR_RETURN(VectorPtr v, node->Evaluate(all, context));
    partition.push_back(std::move(v));
  }
  std::vector<ExprNodePtr> order_nodes;
  for (const auto& k : call.order_by) {
    FLOE_ASSIGN_OR_RETURN(auto node, CompileExpression(*k.expr, layout));
    FLOE_ASSIGN_OR_RETURN(VectorPtr v, node->Evaluate(all, context));
    order.push_back(std::move(v));
    order_nodes.push_back(std::move(node));
  }
  std::vector<SqlType> arg_types;
  for (const auto& e : call.args) {
    FLOE_ASSIGN_OR_RETURN(auto node, CompileExpression(*e, layout));
    FLOE_ASSIGN_OR_RETURN(VectorPtr v, node->Evaluate(all, context));
    args.push_back(std::move(v));
    arg_types.push_back(e->type);
  }
  VectorPtr filter;
  if (call.filter) {
    FLOE_ASSIGN_OR_RETURN(auto node, CompileExpression(*call.filter, layout));
    FLOE_ASSIGN_OR_RETURN(filter, node->Evaluate(all, context));
  }
  // Sort row positions by partition then order keys.
  KeyEncoder partition_keys, peer_keys;
  std::vector<const ColumnVector*> pcols, ocols;
  for (const auto& v : partition) pcols.push_back(v.get());
  for (const auto& v : order) ocols.push_back(v.get());
  partition_keys.Encode(pcols, n);
  peer_keys.Encode(ocols, n);
  std::vector<uint32_t> sorted(static_cast<size_t>(n));
  std::iota(sorted.begin(), sorted.end(), 0u);
  std::vector<PhysicalType> physical;
  for (const auto& node : order_nodes) physical.push_back(PhysicalTypeOf(node->type()));
  std::stable_sort(sorted.begin(), sorted.end(), [&](uint32_t a, uint32_t b) {
    int c = partition_keys.key(a).compare(partition_keys.key(b));
    if (c != 0) return c < 0;
    for (size_t k = 0; k < order.size(); ++k) {
      const ColumnVector& v = *order[k];
      bool na = !v.IsValid(a), nb = !v.IsValid(b);
      if (na || nb) {
        if (na && nb) continue;
        return na == call.order_by[k].nulls_first;
      }
      Value x = GetValue(v, order_nodes[k]->type(), a), y = GetValue(v, order_nodes[k]->type(), b);
      int cmp = CompareForSort(x, y);
      if (cmp != 0) return call.order_by[k].descending ? cmp > 0 : cmp < 0;
    }
    return false;
  });
  const std::string& f = call.function;
  std::vector<Value> results(static_cast<size_t>(n), Value::Null(call.type));
  bool ranking = f == "row_number" || f == "rank" || f == "dense_rank" || f == "percent_rank" || f == "cume_dist" || f == "ntile";
  bool navigation = f == "lag" || f == "lead";
  bool value_fn = f == "first_value" || f == "last_value" || f == "nth_value";
  AggregateCall aggregate;
  aggregate.function = f;
  aggregate.star = call.star;
  aggregate.type = call.type;
  if (!ranking && !navigation && !value_fn) {
    FLOE_RETURN_IF_ERROR(MakeAggregateState(aggregate, arg_types));
  }
  bool range_offsets = call.frame_mode == FrameMode::kRange && (call.frame_start.offset || call.frame_end.offset);
  RangeLine line;
  int64_t start_offset = 0, end_offset = 0;
  if (range_offsets) {
    if (order.size() != 1) return InvalidArgument("RANGE with an offset needs exactly one ORDER BY key");
    FLOE_ASSIGN_OR_RETURN(line, RangeLineOf(call, *order[0], order_nodes[0]->type(), n));
  } else {
    FLOE_ASSIGN_OR_RETURN(start_offset, FrameOffset(call.frame_start));
    FLOE_ASSIGN_OR_RETURN(end_offset, FrameOffset(call.frame_end));
  }
  using K = WindowFrameBound::Kind;

  int64_t p0 = 0;
  while (p0 < n) {
    int64_t p1 = p0;
    while (p1 + 1 < n && partition_keys.key(sorted[static_cast<size_t>(p1 + 1)]) == partition_keys.key(sorted[static_cast<size_t>(p0)])) ++p1;
    int64_t size = p1 - p0 + 1;
    // Peer groups: [peer_start[i], peer_end[i]] in sorted positions.
    std::vector<int64_t> peer_start(static_cast<size_t>(size)), peer_end(static_cast<size_t>(size));
    for (int64_t i = 0; i < size; ++i) {
      bool same = i > 0 && peer_keys.key(sorted[static_cast<size_t>(p0 + i)]) == peer_keys.key(sorted[static_cast<size_t>(p0 + i - 1)]);
      peer_start[static_cast<size_t>(i)] = same ? peer_start[static_cast<size_t>(i - 1)] : p0 + i;
    }
    for (int64_t i = size - 1; i >= 0; --i) {
      bool same = i + 1 < size && peer_start[static_cast<size_t>(i + 1)] == peer_start[static_cast<size_t>(i)];
      peer_end[static_cast<size_t>(i)] = same ? peer_end[static_cast<size_t>(i + 1)] : p0 + i;
    }
    // GROUPS: each position's peer group, numbered from 0, and each group's first and last row.
    std::vector<int64_t> group_of, group_first, group_last;
    if (call.frame_mode == FrameMode::kGroups) {
      for (int64_t i = 0; i < size; ++i) {
        if (i == 0 || peer_start[static_cast<size_t>(i)] == p0 + i) {
          group_first.push_back(p0 + i);
          group_last.push_back(peer_end[static_cast<size_t>(i)]);
        }
        group_of.push_back(static_cast<int64_t>(group_first.size()) - 1);
      }
    }
    auto group_row = [&](int64_t group, bool first) {
      if (group < 0) return first ? p0 : p0 - 1;  // Before the first group: an empty end.
      if (group >= static_cast<int64_t>(group_first.size())) return first ? p1 + 1 : p1;
      return first ? group_first[static_cast<size_t>(group)] : group_last[static_cast<size_t>(group)];
    };
    // RANGE: the rows with non-NULL keys are contiguous (NULLs sort to one end); a bound is the
    // first position whose key is >= point (start) or the last whose key is <= point (end).
    int64_t nonnull_first = p0, nonnull_last = p1;
    if (range_offsets) {
      const ColumnVector& key = *order[0];
      while (nonnull_first <= p1 && !key.IsValid(sorted[static_cast<size_t>(nonnull_first)])) ++nonnull_first;
      while (nonnull_last >= nonnull_first && !key.IsValid(sorted[static_cast<size_t>(nonnull_last)])) --nonnull_last;
    }
    auto range_bound = [&](int64_t r, bool start, bool following) -> int64_t {
      auto lo = sorted.begin() + nonnull_first, hi = sorted.begin() + nonnull_last + 1;
      // The same search on either line: exact integers or doubles.
      auto search = [&](const auto& keys, auto start_offset, auto end_offset) {
        auto offset = start ? start_offset : end_offset;
        auto point = keys[sorted[static_cast<size_t>(r)]] + (following ? offset : -offset);
        auto at = start ? std::partition_point(lo, hi, [&](uint32_t x) { return keys[x] < point; })
                        : std::partition_point(lo, hi, [&](uint32_t x) { return keys[x] <= point; });
        return (at - sorted.begin()) - (start ? 0 : 1);
      };
      return line.exact ? search(line.ints, line.start_int, line.end_int)
                        : search(line.doubles, line.start_double, line.end_double);
    };
    auto offset_bound = [&](int64_t r, bool start, bool following) -> int64_t {
      int64_t i = r - p0;
      int64_t offset = start ? start_offset : end_offset;
      switch (call.frame_mode) {
        case FrameMode::kRows: return following ? r + offset : r - offset;
        case FrameMode::kGroups: return group_row(group_of[static_cast<size_t>(i)] + (following ? offset : -offset), start);
        case FrameMode::kRange:
          // A NULL key's frame under an offset is its peers: the other NULLs.
          if (!order[0]->IsValid(sorted[static_cast<size_t>(r)])) return start ? peer_start[static_cast<size_t>(i)] : peer_end[static_cast<size_t>(i)];
          return range_bound(r, start, following);
      }
      return r;
    };
    auto frame_of = [&](int64_t r) {
      int64_t i = r - p0;
      Frame fr;
      bool rows = call.frame_mode == FrameMode::kRows;
      switch (call.frame_start.kind) {
        case K::kUnboundedPreceding: fr.start = p0; break;
        case K::kPreceding: fr.start = offset_bound(r, true, false); break;
        case K::kCurrentRow: fr.start = rows ? r : peer_start[static_cast<size_t>(i)]; break;
        case K::kFollowing: fr.start = offset_bound(r, true, true); break;
        case K::kUnboundedFollowing: fr.start = p1 + 1; break;
      }
      switch (call.frame_end.kind) {
        case K::kUnboundedFollowing: fr.end = p1; break;
        case K::kFollowing: fr.end = offset_bound(r, false, true); break;
        case K::kCurrentRow: fr.end = rows ? r : peer_end[static_cast<size_t>(i)]; break;
        case K::kPreceding: fr.end = offset_bound(r, false, false); break;
        case K::kUnboundedPreceding: fr.end = p0 - 1; break;
      }
      fr.start = std::max(fr.start, p0);
      fr.end = std::min(fr.end, p1);
      return fr;
    };
    std::unique_ptr<AggregateState> running;
    int64_t running_end = p0 - 1;
    int64_t dense = 0;
    for (int64_t r = p0; r <= p1; ++r) {
      int64_t i = r - p0;
      uint32_t row = sorted[static_cast<size_t>(r)];
      Value& result = results[row];
      if (i == 0 || peer_start[static_cast<size_t>(i)] == r) ++dense;
      if (f == "row_number") {
        result = Value::Int(call.type, i + 1);
      } else if (f == "rank") {
        result = Value::Int(call.type, peer_start[static_cast<size_t>(i)] - p0 + 1);
      } else if (f == "dense_rank") {
        result = Value::Int(call.type, dense);
      } else if (f == "percent_rank") {
        result = Value::Double(call.type, size == 1 ? 0.0 : static_cast<double>(peer_start[static_cast<size_t>(i)] - p0) / static_cast<double>(size - 1));
      } else if (f == "cume_dist") {
        result = Value::Double(call.type, static_cast<double>(peer_end[static_cast<size_t>(i)] - p0 + 1) / static_cast<double>(size));
      } else if (f == "ntile") {
        if (!args[0]->IsValid(row)) continue;
        int64_t buckets = args[0]->Data<int64_t>()[row];
        if (buckets <= 0) return InvalidArgument("Buckets must be greater than 0");
        int64_t per = size / buckets, extra = size % buckets;
        int64_t big = extra * (per + 1);
        result = Value::Int(call.type, i < big ? i / (per + 1) + 1 : (per == 0 ? i + 1 : extra + (i - big) / per + 1));
      } else if (navigation) {
        int64_t offset = 1;
        if (args.size() > 1) {
          if (!args[1]->IsValid(row)) continue;
          offset = args[1]->Data<int64_t>()[row];
          if (offset < 0) return InvalidArgument("Offset must be at least 0");
        }
        int64_t target = f == "lag" ? r - offset : r + offset;
        if (target >= p0 && target <= p1) {
          result = GetValue(*args[0], call.type, sorted[static_cast<size_t>(target)]);
        } else if (args.size() > 2) {
          result = GetValue(*args[2], call.type, row);
        }
      } else if (value_fn) {
        Frame fr = frame_of(r);
        if (fr.end < fr.start) continue;
        int64_t target = f == "first_value" ? fr.start : f == "last_value" ? fr.end : -1;
        if (f == "nth_value") {
          if (!args[1]->IsValid(row)) continue;
          int64_t k = args[1]->Data<int64_t>()[row];
          if (k <= 0) return InvalidArgument("Invalid nth_value position: {}", k);
          target = fr.start + k - 1;
          if (target > fr.end) continue;
        }
        result = GetValue(*args[0], call.type, sorted[static_cast<size_t>(target)]);
      } else {
        Frame fr = frame_of(r);
        auto feed = [&](AggregateState& state, int64_t from, int64_t to) -> Status {
          if (to < from) return OkStatus();
          std::vector<uint32_t> rows(sorted.begin() + from, sorted.begin() + to + 1);
          std::vector<VectorPtr> gathered;
          for (const auto& a : args) gathered.push_back(Gather(*a, rows.data(), static_cast<int64_t>(rows.size())));
          std::vector<uint32_t> groups(rows.size(), 0);
          std::vector<uint8_t> mask;
          if (filter) {
            for (uint32_t x : rows) mask.push_back(filter->IsValid(x) && filter->Data<uint8_t>()[x]);
          }
          return state.Update(groups.data(), static_cast<int64_t>(rows.size()), gathered, mask.empty() ? nullptr : mask.data());
        };
        std::unique_ptr<AggregateState> fresh;
        AggregateState* state = nullptr;
        if (fr.start == p0) {
          if (!running || fr.end < running_end) {
            FLOE_ASSIGN_OR_RETURN(running, MakeAggregateState(aggregate, arg_types));
            running->Resize(1);
            running_end = p0 - 1;
          }
          FLOE_RETURN_IF_ERROR(feed(*running, running_end + 1, fr.end));
          running_end = std::max(running_end, fr.end);
          state = running.get();
        } else {
          FLOE_ASSIGN_OR_RETURN(fresh, MakeAggregateState(aggregate, arg_types));
          fresh->Resize(1);
          FLOE_RETURN_IF_ERROR(feed(*fresh, fr.start, fr.end));
          state = fresh.get();
        }
        FLOE_ASSIGN_OR_RETURN(VectorPtr v, state->Finalize(1));
        result = GetValue(*v, call.type, 0);
      }
    }
    FLOE_RETURN_IF_ERROR(context.CheckInterrupt());
    p0 = p1 + 1;
  }
  for (const auto& v : results) AppendValue(out, v);
  return OkStatus();
}

}  // namespace

Result<Materialized> ExecuteWindow(const LogicalWindow& node, Materialized input,
                                   const std::map<ColumnId, Value>* outer, QueryContext& context) {
  const auto& child = node.children[0]->output;
  DataChunk all;
  all.rows = input.rows();
  for (size_t i = 0; i < child.size(); ++i) {
    all.columns.push_back(input.chunks.size() == 1 ? input.chunks[0].columns[i] : Concatenate(input.chunks, i, child[i].type));
  }
  input.chunks.clear();
  MemoryReservation reservation(context.memory(), "Window");
  FLOE_RETURN_IF_ERROR(reservation.Resize(all.Bytes()));
  ColumnLayout layout = ColumnLayout::Of(child, outer);
  DataChunk out = all;
  for (const auto& call : node.windows) {
    if (!IsExecutable(call.type)) return NotImplemented("window function {} of type {} is not supported yet", call.function, call.type.ToString());
    if (call.distinct) return NotImplemented("DISTINCT in window functions is not supported");
    auto column = NewVector(call.type, all.rows);
    if (all.rows > 0) FLOE_RETURN_IF_ERROR(ComputeWindow(call, all, layout, context, *column));
    out.columns.push_back(std::move(column));
  }
  // Keep only the node's output columns (pruned windows have been dropped by the optimizer).
  Materialized result;
  if (out.rows > 0) result.chunks.push_back(std::move(out));
  return result;
}

}  // namespace floe::sql

// Hash aggregation: each worker groups its rows in a thread-local KeyTable (an IntGroupTable
// for one integer key) with its own aggregate states; the partial tables merge into one at the end. DISTINCT is the same with no
// aggregates. Memory is charged per worker as its table grows.
#include <cstring>

#include "sql/execution/aggregate_state.h"
#include "sql/execution/int_group_table.h"
#include "sql/execution/key_table.h"
#include "sql/execution/physical_operator.h"

namespace floe::sql {
namespace {

struct CompiledAggregate {
  const AggregateCall* call = nullptr;
  std::vector<ExprNodePtr> args;
  std::vector<SqlType> arg_types;
  ExprNodePtr filter;
};

class AggregateLocal final : public LocalSinkState {
 public:
  explicit AggregateLocal(MemoryTracker& tracker) : reservation(tracker, "HashAggregate") {}

  KeyTable table;
  IntGroupTable int_table;  // Instead of `table` when grouping by one 64-bit integer key.
  bool int_key = false;
  KeyEncoder encoder;
  std::vector<std::unique_ptr<AggregateState>> states;
  std::vector<uint32_t> ids;
  MemoryReservation reservation;
  int64_t chunks = 0;
  // Group ids by combination of dictionary codes, valid while the key columns carry these
  // dictionaries (-1: that combination not met yet).
  std::vector<std::shared_ptr<const ColumnVector>> dictionaries;
  std::vector<int64_t> combination_ids;
  std::string row_key;

  size_t groups() const { return int_key ? int_table.size() : table.size(); }
  int64_t TableBytes() const { return int_key ? int_table.Bytes() : table.Bytes(); }
};

// Most code combinations worth a direct table; past it the row-by-row path is as good.
constexpr uint64_t kMaxCodeCombinations = 1 << 14;

// Group ids for a chunk whose key columns all come straight from Parquet dictionaries (low-
// cardinality strings such as region or type): one key encoding and hash-table probe per
// distinct combination of codes instead of per row. False when the columns do not qualify.
bool DictionaryGroupIds(AggregateLocal& local, const std::vector<const ColumnVector*>& keys, int64_t rows) {
  uint64_t combinations = 1;
  for (const ColumnVector* k : keys) {
    if (!k->HasDictionary()) return false;
    combinations *= static_cast<uint64_t>(k->dictionary->length) + 1;  // + 1: null
    if (combinations > kMaxCodeCombinations) return false;
  }
  bool same = local.dictionaries.size() == keys.size();
  for (size_t k = 0; same && k < keys.size(); ++k) same = local.dictionaries[k] == keys[k]->dictionary;
  if (!same) {
    local.dictionaries.clear();
    for (const ColumnVector* k : keys) local.dictionaries.push_back(k->dictionary);
    local.combination_ids.assign(combinations, -1);
  }
  for (int64_t i = 0; i < rows; ++i) {
    uint64_t combination = 0;
    for (const ColumnVector* k : keys) {
      auto size = static_cast<uint64_t>(k->dictionary->length);
      combination = combination * (size + 1) + (k->IsValid(i) ? k->dictionary_codes[static_cast<size_t>(i)] : size);
    }
    int64_t& id = local.combination_ids[combination];
    if (id < 0) {
      KeyEncoder::EncodeRow(keys, i, &local.row_key);
      bool inserted;
      id = local.table.FindOrInsert(local.row_key, HashKey(local.row_key), inserted);
    }
    local.ids[static_cast<size_t>(i)] = static_cast<uint32_t>(id);
  }
  return true;
}

// Group ids for a chunk grouped by one 64-bit integer column.
void IntGroupIds(AggregateLocal& local, const ColumnVector& key, int64_t rows) {
  const int64_t* values = key.Data<int64_t>();
  constexpr int64_t kPrefetchDistance = 16;
  bool nulls = !key.validity.empty();
  for (int64_t i = 0; i < rows; ++i) {
    // Tables are often sorted or clustered by the key (lineitem by order): a row with the
    // previous row's key takes its id without a probe.
    if (i > 0 && !nulls && values[i] == values[i - 1]) {
      local.ids[static_cast<size_t>(i)] = local.ids[static_cast<size_t>(i) - 1];
      continue;
    }
    if (i + kPrefetchDistance < rows) local.int_table.Prefetch(values[i + kPrefetchDistance]);
    local.ids[static_cast<size_t>(i)] = key.IsValid(i) ? local.int_table.FindOrInsert(values[i]) : local.int_table.FindOrInsertNull();
  }
}

// The key column of an integer-keyed aggregate's groups, in id order.
VectorPtr IntKeyVector(const IntGroupTable& table, const SqlType& type) {
  auto out = NewVector(type, static_cast<int64_t>(table.size()));
  out->length = static_cast<int64_t>(table.size());
  out->values.Resize(table.size() * sizeof(int64_t));
  std::memcpy(out->values.data(), table.keys().data(), table.size() * sizeof(int64_t));
  bool any_null = false;
  for (uint8_t v : table.valid()) any_null |= v == 0;
  if (any_null) out->validity.assign(table.valid().begin(), table.valid().end());
  return out;
}

// Each row's group id in local.ids (sized to `rows`), adding groups for new keys and growing
// the aggregate states to match: the integer table, the dictionary-code path, or encoded keys.
void AssignGroupIds(AggregateLocal& local, const std::vector<const ColumnVector*>& key_columns, int64_t rows) {
  size_t before = local.groups();
  if (local.int_key) {
    IntGroupIds(local, *key_columns[0], rows);
  } else if (!DictionaryGroupIds(local, key_columns, rows)) {
    local.encoder.Encode(key_columns, rows);
    constexpr int64_t kPrefetchDistance = 16;
    for (int64_t i = 0; i < rows; ++i) {
      if (i + kPrefetchDistance < rows) local.table.Prefetch(local.encoder.hash(i + kPrefetchDistance));
      bool inserted;
      local.ids[static_cast<size_t>(i)] = local.table.FindOrInsert(local.encoder.key(i), local.encoder.hash(i), inserted);
    }
  }
  if (local.groups() != before) {
    for (auto& s : local.states) s->Resize(local.groups());
  }
}

class HashAggregateSink final : public Sink {
 public:
  HashAggregateSink(std::vector<ExprNodePtr> groups, std::vector<CompiledAggregate> aggregates, std::vector<SqlType> group_types,
                    std::vector<BoundExprPtr> owned, std::vector<int64_t> global_sets = {})
      : groups_(std::move(groups)),
        aggregates_(std::move(aggregates)),
        group_types_(std::move(group_types)),
        owned_(std::move(owned)),
        global_sets_(std::move(global_sets)) {}

  Result<std::unique_ptr<AggregateLocal>> NewLocal(QueryContext& context) {
    auto local = std::make_unique<AggregateLocal>(context.memory());
    local->int_key = group_types_.size() == 1 && PhysicalTypeOf(group_types_[0]) == PhysicalType::kInt64;
    for (const auto& a : aggregates_) {
      FLOE_ASSIGN_OR_RETURN(auto state, MakeAggregateState(*a.call, a.arg_types));
      local->states.push_back(std::move(state));
    }
    return local;
  }

  std::unique_ptr<LocalSinkState> MakeLocal(QueryContext& context) override {
    auto local = NewLocal(context);
    if (!local.has_value()) {
      std::lock_guard lock(mutex_);
      if (!make_error_) make_error_ = local.error();
      return std::make_unique<AggregateLocal>(context.memory());
    }
    return std::move(*local);
  }

  Status Consume(LocalSinkState& state, DataChunk&& chunk, QueryContext& context) override {
    auto& local = static_cast<AggregateLocal&>(state);
    {
      std::lock_guard lock(mutex_);
      if (make_error_) return std::unexpected(*make_error_);
    }
    int64_t n = chunk.rows;
    local.ids.resize(static_cast<size_t>(n));
    if (groups_.empty()) {
      if (local.table.size() == 0) {
        bool inserted;
        local.table.FindOrInsert("", HashKey(""), inserted);
        for (auto& s : local.states) s->Resize(1);
      }
      std::fill(local.ids.begin(), local.ids.end(), 0);
    } else {
      FLOE_ASSIGN_OR_RETURN(EvaluatedKeys keys, EvaluateKeys(groups_, chunk, context));
      AssignGroupIds(local, keys.columns, n);
    }
    for (size_t a = 0; a < aggregates_.size(); ++a) {
      const CompiledAggregate& agg = aggregates_[a];
      std::vector<VectorPtr> args;
      for (const auto& e : agg.args) {
        FLOE_ASSIGN_OR_RETURN(VectorPtr v, e->Evaluate(chunk, context));
        args.push_back(std::move(v));
      }
      std::vector<uint8_t> mask;
      if (agg.filter) {
        FLOE_ASSIGN_OR_RETURN(VectorPtr f, agg.filter->Evaluate(chunk, context));
        mask.resize(static_cast<size_t>(n));
        for (int64_t i = 0; i < n; ++i) mask[static_cast<size_t>(i)] = f->IsValid(i) && f->Data<uint8_t>()[i] != 0;
      }
      FLOE_RETURN_IF_ERROR(local.states[a]->Update(local.ids.data(), n, args, mask.empty() ? nullptr : mask.data()));
    }
    if ((++local.chunks & 7) == 1 || local.groups() > 4096) {
      int64_t bytes = local.TableBytes();
      for (const auto& s : local.states) bytes += s->Bytes();
      FLOE_RETURN_IF_ERROR(local.reservation.Resize(bytes));
    }
    return OkStatus();
  }

  Status Combine(std::unique_ptr<LocalSinkState> state, QueryContext& context) override {
    auto local = std::unique_ptr<AggregateLocal>(static_cast<AggregateLocal*>(state.release()));
    if (!global_) {
      global_ = std::move(local);
      return OkStatus();
    }
    // The larger table absorbs the smaller: fewer keys move and the table grows less.
    if (local->groups() > global_->groups()) std::swap(local, global_);
    size_t local_groups = local->groups();
    if (local_groups == 0) return OkStatus();
    std::vector<uint32_t> mapping(local_groups);
    constexpr uint32_t kPrefetchDistance = 16;
    if (local->int_key) {
      IntGroupTable& global = global_->int_table;
      const IntGroupTable& part = local->int_table;
      global.Reserve(global.size() + local_groups);
      for (uint32_t id = 0; id < local_groups; ++id) {
        if (id + kPrefetchDistance < local_groups) global.Prefetch(part.KeyAt(id + kPrefetchDistance));
        mapping[id] = part.IsNull(id) ? global.FindOrInsertNull() : global.FindOrInsert(part.KeyAt(id));
      }
    } else {
      // At most every local group is new: room for them up front instead of rehashing on the way.
      global_->table.Reserve(global_->table.size() + local_groups);
      for (uint32_t id = 0; id < local_groups; ++id) {
        if (id + kPrefetchDistance < local_groups) global_->table.Prefetch(local->table.HashAt(id + kPrefetchDistance));
        bool inserted;
        mapping[id] = global_->table.FindOrInsert(local->table.KeyAt(id), local->table.HashAt(id), inserted);
      }
    }
    for (size_t a = 0; a < global_->states.size(); ++a) {
      global_->states[a]->Resize(global_->groups());
      FLOE_RETURN_IF_ERROR(global_->states[a]->Merge(*local->states[a], mapping));
    }
    int64_t bytes = global_->TableBytes();
    for (const auto& s : global_->states) bytes += s->Bytes();
    return global_->reservation.Resize(bytes);
  }

  Result<Materialized> Finalize(QueryContext& context) override {
    if (make_error_) return std::unexpected(*make_error_);
    if (!global_) {
      FLOE_ASSIGN_OR_RETURN(global_, NewLocal(context));
    }
    if (groups_.empty() && global_->table.size() == 0) {
      bool inserted;
      global_->table.FindOrInsert("", HashKey(""), inserted);
      for (auto& s : global_->states) s->Resize(1);
    }
    if (!global_sets_.empty() && global_->groups() == 0) AddGlobalSetGroups(*global_);
    size_t count = global_->groups();
    DataChunk all;
    all.rows = static_cast<int64_t>(count);
    if (global_->int_key) {
      all.columns.push_back(IntKeyVector(global_->int_table, group_types_[0]));
    } else if (!groups_.empty()) {
      all.columns = DecodeKeys(global_->table, group_types_);
    }
    for (auto& s : global_->states) {
      FLOE_ASSIGN_OR_RETURN(VectorPtr v, s->Finalize(count));
      all.columns.push_back(std::move(v));
    }
    Materialized out;
    if (all.rows <= kChunkRows) {
      if (all.rows > 0) out.chunks.push_back(std::move(all));
    } else {
      for (int64_t at = 0; at < all.rows; at += kChunkRows) out.chunks.push_back(SliceChunk(all, at, std::min(kChunkRows, all.rows - at)));
    }
    global_.reset();
    return out;
  }

 private:
  // No input row arrived: each empty grouping set still answers one row, its keys NULL and
  // its set number (the last key) set, with the aggregates of nothing.
  void AddGlobalSetGroups(AggregateLocal& local) {
    auto rows = static_cast<int64_t>(global_sets_.size());
    std::vector<VectorPtr> keys;
    for (size_t k = 0; k + 1 < group_types_.size(); ++k) keys.push_back(ConstantVector(Value::Null(group_types_[k]), rows));
    MutableVectorPtr numbers = NewVector(group_types_.back(), rows);
    numbers->length = rows;
    numbers->values.Resize(global_sets_.size() * sizeof(int64_t));
    std::memcpy(numbers->values.data(), global_sets_.data(), global_sets_.size() * sizeof(int64_t));
    keys.push_back(std::move(numbers));
    std::vector<const ColumnVector*> columns;
    for (const auto& k : keys) columns.push_back(k.get());
    local.ids.resize(static_cast<size_t>(rows));
    AssignGroupIds(local, columns, rows);
  }

  std::vector<ExprNodePtr> groups_;
  std::vector<CompiledAggregate> aggregates_;
  std::vector<SqlType> group_types_;
  std::vector<BoundExprPtr> owned_;
  std::vector<int64_t> global_sets_;
  std::unique_ptr<AggregateLocal> global_;
  std::mutex mutex_;
  std::optional<Error> make_error_;
};

}  // namespace

Result<std::unique_ptr<Sink>> MakeHashAggregate(const LogicalAggregate& node, const std::map<ColumnId, Value>* outer,
                                                QueryContext& context) {
  ColumnLayout layout = ColumnLayout::Of(node.children[0]->output, outer);
  std::vector<ExprNodePtr> groups;
  std::vector<SqlType> group_types;
  for (const auto& g : node.groups) {
    if (!CanCarry(g->type))
      return NotImplemented("GROUP BY on type {} is not supported by the executor yet", g->type.ToString());
    FLOE_ASSIGN_OR_RETURN(auto compiled, CompileExpression(*g, layout));
    group_types.push_back(g->type);
    groups.push_back(std::move(compiled));
  }
  std::vector<CompiledAggregate> aggregates;
  for (const auto& call : node.aggregates) {
    CompiledAggregate a;
    a.call = &call;
    for (const auto& arg : call.args) {
      FLOE_ASSIGN_OR_RETURN(auto compiled, CompileExpression(*arg, layout));
      a.arg_types.push_back(arg->type);
      a.args.push_back(std::move(compiled));
    }
    if (call.function == "array_agg") {
      // Its ORDER BY keys follow the arguments, so the state sees them row by row.
      for (const SortKey& key : call.order) {
        FLOE_ASSIGN_OR_RETURN(auto compiled, CompileExpression(*key.expr, layout));
        a.arg_types.push_back(key.expr->type);
        a.args.push_back(std::move(compiled));
      }
    }
    if (call.filter) {
      FLOE_ASSIGN_OR_RETURN(a.filter, CompileExpression(*call.filter, layout));
    }
    // Check the function is supported before any row is read. Of rows, arrays and maps, only
    // their presence counts (count(payload), count(DISTINCT payload): DISTINCT compares their
    // key encodings) and array_agg and map_agg collect them.
    bool collects =
        (call.function == "array_agg" && call.args.size() == 1) || (call.function == "map_agg" && !call.distinct);
    for (const SqlType& t : a.arg_types) {
      if (!IsExecutable(t) && call.function != "count" && !collects) {
        return NotImplemented("aggregate {}() on type {} is not supported by the executor yet", call.function, t.ToString());
      }
    }
    FLOE_RETURN_IF_ERROR(MakeAggregateState(call, a.arg_types));
    aggregates.push_back(std::move(a));
  }
  return std::unique_ptr<Sink>(std::make_unique<HashAggregateSink>(std::move(groups), std::move(aggregates), std::move(group_types),
                                                                   std::vector<BoundExprPtr>{}, node.global_grouping_sets));
}

Result<std::unique_ptr<Sink>> MakeDistinct(const LogicalDistinct& node, QueryContext& context) {
  ColumnLayout layout = ColumnLayout::Of(node.children[0]->output, nullptr);
  std::vector<ExprNodePtr> groups;
  std::vector<SqlType> types;
  std::vector<BoundExprPtr> owned;
  for (const auto& c : node.children[0]->output) {
    owned.push_back(MakeColumn(c.id, c.type, c.name));
    FLOE_ASSIGN_OR_RETURN(auto compiled, CompileExpression(*owned.back(), layout));
    types.push_back(c.type);
    groups.push_back(std::move(compiled));
  }
  return std::unique_ptr<Sink>(std::make_unique<HashAggregateSink>(std::move(groups), std::vector<CompiledAggregate>{}, std::move(types),
                                                                   std::move(owned)));
}

}  // namespace floe::sql

// The aggregates that build nested values: array_agg(x [ORDER BY ...]) and map_agg(k, v). Each
// group keeps its inputs as Values (the element, and the ORDER BY keys that came after the
// arguments), and Finalize builds the array or map: array_agg in key order (inputs equal in every
// key, or all inputs without ORDER BY, in no promised order, as in Trino), NULL elements kept;
// map_agg with one entry per key (the first seen; NULL keys skipped), in key order. A group with
// no input is NULL.
#include <algorithm>
#include <unordered_map>

#include "sql/execution/aggregate_state.h"
#include "sql/function/scalar_evaluation.h"

namespace floe::sql {
namespace {

struct Entry {
  Value value;
  std::vector<Value> keys;  // array_agg's ORDER BY keys; map_agg's value is `keys[0]`.
};

// One ORDER BY key's direction and where its NULLs go.
struct KeyOrder {
  bool descending = false;
  bool nulls_first = false;
};

class ArrayAggState final : public AggregateState {
 public:
  ArrayAggState(SqlType type, std::vector<SqlType> arg_types, std::vector<KeyOrder> order)
      : type_(std::move(type)), arg_types_(std::move(arg_types)), order_(std::move(order)) {}

  void Resize(size_t groups) override { entries_.resize(groups); }
  Status Update(const uint32_t* groups, int64_t rows, const std::vector<VectorPtr>& args,
                const uint8_t* mask) override {
    for (int64_t i = 0; i < rows; ++i) {
      if (!MaskTakesRow(mask, i)) continue;
      Entry e{GetValue(*args[0], arg_types_[0], i), {}};
      for (size_t k = 1; k < args.size(); ++k) e.keys.push_back(GetValue(*args[k], arg_types_[k], i));
      entries_[groups[i]].push_back(std::move(e));
      ++count_;
    }
    return OkStatus();
  }
  Status Merge(AggregateState& other, const std::vector<uint32_t>& mapping) override {
    auto& o = static_cast<ArrayAggState&>(other);
    for (size_t g = 0; g < o.entries_.size(); ++g) {
      auto& into = entries_[mapping[g]];
      for (Entry& e : o.entries_[g]) into.push_back(std::move(e));
      count_ += static_cast<int64_t>(o.entries_[g].size());
    }
    return OkStatus();
  }
  Result<VectorPtr> Finalize(size_t groups) override {
    auto out = NewVector(type_, static_cast<int64_t>(groups));
    for (size_t g = 0; g < groups; ++g) {
      std::vector<Entry>& entries = entries_[g];
      if (entries.empty()) {
        out->AppendNull();
        continue;
      }
      if (!order_.empty())
        std::stable_sort(entries.begin(), entries.end(), [&](const Entry& a, const Entry& b) { return Before(a, b); });
      std::vector<Value> elements;
      elements.reserve(entries.size());
      for (Entry& e : entries) elements.push_back(std::move(e.value));
      AppendValue(*out, Value::Array(type_, std::move(elements)));
    }
    return VectorPtr(out);
  }
  int64_t Bytes() const override {
    return count_ * static_cast<int64_t>(sizeof(Entry) + sizeof(Value) * order_.size());
  }

 private:
  // ORDER BY's comparison: NULLs first or last as asked, then values ascending or descending.
  bool Before(const Entry& a, const Entry& b) const {
    for (size_t k = 0; k < order_.size() && k < a.keys.size(); ++k) {
      const Value& x = a.keys[k];
      const Value& y = b.keys[k];
      if (x.is_null() || y.is_null()) {
        if (x.is_null() == y.is_null()) continue;
        return x.is_null() == order_[k].nulls_first;
      }
      auto c = CompareValues(x, y);
      if (!c || *c == 0) continue;
      return order_[k].descending ? *c > 0 : *c < 0;
    }
    return false;
  }

  SqlType type_;
  std::vector<SqlType> arg_types_;
  std::vector<KeyOrder> order_;
  std::vector<std::vector<Entry>> entries_;
  int64_t count_ = 0;
};

class MapAggState final : public AggregateState {
 public:
  MapAggState(SqlType type, std::vector<SqlType> arg_types)
      : type_(std::move(type)), arg_types_(std::move(arg_types)) {}

  void Resize(size_t groups) override {
    entries_.resize(groups);
    seen_.resize(groups);
  }
  Status Update(const uint32_t* groups, int64_t rows, const std::vector<VectorPtr>& args,
                const uint8_t* mask) override {
    for (int64_t i = 0; i < rows; ++i) {
      if (!MaskTakesRow(mask, i) || !args[0]->IsValid(i)) continue;
      Add(groups[i], GetValue(*args[0], arg_types_[0], i), [&] { return GetValue(*args[1], arg_types_[1], i); });
    }
    return OkStatus();
  }
  Status Merge(AggregateState& other, const std::vector<uint32_t>& mapping) override {
    auto& o = static_cast<MapAggState&>(other);
    for (size_t g = 0; g < o.entries_.size(); ++g) {
      for (Entry& e : o.entries_[g]) Add(mapping[g], std::move(e.value), [&] { return std::move(e.keys[0]); });
    }
    return OkStatus();
  }
  Result<VectorPtr> Finalize(size_t groups) override {
    auto out = NewVector(type_, static_cast<int64_t>(groups));
    for (size_t g = 0; g < groups; ++g) {
      if (entries_[g].empty()) {
        out->AppendNull();
        continue;
      }
      // In key order: the inputs' arrival order differs from run to run (threads), and a
      // map has none of its own.
      std::sort(entries_[g].begin(), entries_[g].end(), [](const Entry& a, const Entry& b) {
        auto c = CompareValues(a.value, b.value);
        return c && *c < 0;
      });
      std::vector<Value> keys_and_values;
      for (Entry& e : entries_[g]) {
        keys_and_values.push_back(std::move(e.value));
        keys_and_values.push_back(std::move(e.keys[0]));
      }
      AppendValue(*out, Value::Map(type_, std::move(keys_and_values)));
    }
    return VectorPtr(out);
  }
  int64_t Bytes() const override { return count_ * static_cast<int64_t>(3 * sizeof(Value) + 32); }

 private:
  // The first value for each key stays (the keys' SQL text tells equal keys apart exactly).
  template <typename F>
  void Add(uint32_t group, Value key, F value) {
    if (!seen_[group].emplace(key.ToSql(), entries_[group].size()).second) return;
    entries_[group].push_back(Entry{std::move(key), {value()}});
    ++count_;
  }

  SqlType type_;
  std::vector<SqlType> arg_types_;
  std::vector<std::vector<Entry>> entries_;  // value = the key, keys[0] = the map value
  std::vector<std::unordered_map<std::string, size_t>> seen_;
  int64_t count_ = 0;
};

}  // namespace

Result<std::unique_ptr<AggregateState>> MakeNestedAggregateState(const AggregateCall& call,
                                                                 const std::vector<SqlType>& arg_types) {
  for (const SqlType& t : arg_types) {
    if (!CanCarry(t))
      return NotImplemented("aggregate {}() on type {} is not supported by the executor yet", call.function,
                            t.ToString());
  }
  if (call.function == "array_agg") {
    std::vector<KeyOrder> order;
    for (const SortKey& k : call.order) order.push_back(KeyOrder{k.descending, k.nulls_first});
    return std::unique_ptr<AggregateState>(std::make_unique<ArrayAggState>(call.type, arg_types, std::move(order)));
  }
  if (!IsExecutable(arg_types[0]))
    return NotImplemented("map_agg() with keys of type {} is not supported yet", arg_types[0].ToString());
  return std::unique_ptr<AggregateState>(std::make_unique<MapAggState>(call.type, arg_types));
}

}  // namespace floe::sql

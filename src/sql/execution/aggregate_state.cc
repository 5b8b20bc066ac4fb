#include "sql/execution/aggregate_state.h"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <limits>
#include <unordered_set>

#include "sql/execution/key_table.h"
#include "sql/function/scalar_evaluation.h"

namespace floe::sql {
namespace {

// 10^38: decimal(38) values lie strictly between its negation and it.
constexpr Int128 kDecimalLimit = [] {
  Int128 p = 1;
  for (int i = 0; i < 38; ++i) p *= 10;
  return p;
}();

Int128 Load128(const ColumnVector& v, int64_t i) {
  Int128 x;
  std::memcpy(&x, v.values.data() + i * 16, 16);
  return x;
}

class CountState final : public AggregateState {
 public:
  enum class Mode { kRows, kValues, kTrue };
  explicit CountState(Mode mode) : mode_(mode) {}

  void Resize(size_t groups) override { counts_.resize(groups, 0); }
  Status Update(const uint32_t* groups, int64_t rows, const std::vector<VectorPtr>& args, const uint8_t* mask) override {
    if (mode_ == Mode::kRows) {
      for (int64_t i = 0; i < rows; ++i) counts_[groups[i]] += MaskTakesRow(mask, i);
      return OkStatus();
    }
    const ColumnVector& v = *args[0];
    for (int64_t i = 0; i < rows; ++i) {
      if (!MaskTakesRow(mask, i) || !v.IsValid(i)) continue;
      if (mode_ == Mode::kTrue && v.Data<uint8_t>()[i] == 0) continue;
      ++counts_[groups[i]];
    }
    return OkStatus();
  }
  Status Merge(AggregateState& other, const std::vector<uint32_t>& mapping) override {
    auto& o = static_cast<CountState&>(other);
    for (size_t g = 0; g < o.counts_.size(); ++g) counts_[mapping[g]] += o.counts_[g];
    return OkStatus();
  }
  Result<VectorPtr> Finalize(size_t groups) override {
    auto out = NewVector(SqlType::Bigint(), static_cast<int64_t>(groups));
    for (size_t g = 0; g < groups; ++g) out->Append<int64_t>(counts_[g]);
    return VectorPtr(out);
  }
  int64_t Bytes() const override { return static_cast<int64_t>(counts_.capacity() * 8); }

 private:
  Mode mode_;
  std::vector<int64_t> counts_;
};

// sum over int64 (checked), double or 128-bit decimals.
template <typename T>
class SumState final : public AggregateState {
 public:
  SumState(SqlType result, bool is_interval = false) : result_(std::move(result)) {}

  void Resize(size_t groups) override {
    sums_.resize(groups, T{});
    has_.resize(groups, 0);
  }
  Status Update(const uint32_t* groups, int64_t rows, const std::vector<VectorPtr>& args, const uint8_t* mask) override {
    const ColumnVector& v = *args[0];
    bool all_valid = v.validity.empty() && mask == nullptr;
    if constexpr (std::is_same_v<T, Int128>) {
      // Checked once per chunk: a sum past 38 digits stays detectable (|sum| < 2^127 after
      // one more addition of a value under 10^38).
      bool overflow = false;
      for (int64_t i = 0; i < rows; ++i) {
        if (!all_valid && (!MaskTakesRow(mask, i) || !v.IsValid(i))) continue;
        uint32_t g = groups[i];
        Int128& sum = sums_[g];
        sum += Load128(v, i);
        overflow |= sum >= kDecimalLimit || sum <= -kDecimalLimit;
        has_[g] = 1;
      }
      if (overflow) return InvalidArgument("Decimal overflow in sum");
      return OkStatus();
    }
    for (int64_t i = 0; i < rows; ++i) {
      if (!all_valid && (!MaskTakesRow(mask, i) || !v.IsValid(i))) continue;
      uint32_t g = groups[i];
      FLOE_RETURN_IF_ERROR(Add(sums_[g], Get(v, i)));
      has_[g] = 1;
    }
    return OkStatus();
  }
  Status Merge(AggregateState& other, const std::vector<uint32_t>& mapping) override {
    auto& o = static_cast<SumState&>(other);
    for (size_t g = 0; g < o.sums_.size(); ++g) {
      if (!o.has_[g]) continue;
      FLOE_RETURN_IF_ERROR(Add(sums_[mapping[g]], o.sums_[g]));
      has_[mapping[g]] = 1;
    }
    return OkStatus();
  }
  Result<VectorPtr> Finalize(size_t groups) override {
    auto out = NewVector(result_, static_cast<int64_t>(groups));
    for (size_t g = 0; g < groups; ++g) {
      if (has_[g]) {
        out->Append<T>(sums_[g]);
      } else {
        out->AppendNull();
      }
    }
    return VectorPtr(out);
  }
  int64_t Bytes() const override { return static_cast<int64_t>(sums_.capacity() * sizeof(T) + has_.capacity()); }

 private:
  static T Get(const ColumnVector& v, int64_t i) {
    if constexpr (std::is_same_v<T, Int128>) {
      return Load128(v, i);
    } else {
      return v.Data<T>()[i];
    }
  }
  Status Add(T& into, T x) {
    if constexpr (std::is_same_v<T, double>) {
      into += x;
    } else if constexpr (std::is_same_v<T, Int128>) {
      into += x;
      if (!DecimalFits(into, 38)) return InvalidArgument("Decimal overflow in sum");
    } else {
      if (__builtin_add_overflow(into, x, &into)) return InvalidArgument("bigint overflow in sum");
    }
    return OkStatus();
  }

  SqlType result_;
  std::vector<T> sums_;
  std::vector<uint8_t> has_;
};

// avg: integers and doubles average as doubles; decimals and intervals keep their type.
class AvgState final : public AggregateState {
 public:
  AvgState(SqlType input, SqlType result) : input_(std::move(input)), result_(std::move(result)) {}

  void Resize(size_t groups) override {
    sums_.resize(groups, 0);
    exact_.resize(groups, 0);
    counts_.resize(groups, 0);
  }
  Status Update(const uint32_t* groups, int64_t rows, const std::vector<VectorPtr>& args, const uint8_t* mask) override {
    const ColumnVector& v = *args[0];
    switch (PhysicalTypeOf(input_)) {
      case PhysicalType::kDouble:
        Accumulate(groups, rows, v, mask, sums_, [&](int64_t i) { return v.Data<double>()[i]; });
        break;
      case PhysicalType::kInt128:
        Accumulate(groups, rows, v, mask, exact_, [&](int64_t i) { return Load128(v, i); });
        break;
      default:
        Accumulate(groups, rows, v, mask, exact_, [&](int64_t i) { return Int128{v.Data<int64_t>()[i]}; });
        break;
    }
    return OkStatus();
  }
  Status Merge(AggregateState& other, const std::vector<uint32_t>& mapping) override {
    auto& o = static_cast<AvgState&>(other);
    for (size_t g = 0; g < o.counts_.size(); ++g) {
      sums_[mapping[g]] += o.sums_[g];
      exact_[mapping[g]] += o.exact_[g];
      counts_[mapping[g]] += o.counts_[g];
    }
    return OkStatus();
  }
  Result<VectorPtr> Finalize(size_t groups) override {
    auto out = NewVector(result_, static_cast<int64_t>(groups));
    for (size_t g = 0; g < groups; ++g) {
      int64_t n = counts_[g];
      if (n == 0) {
        out->AppendNull();
      } else if (result_.kind() == TypeKind::kDecimal) {
        auto q = DivideDecimal(exact_[g], input_.scale(), n, 0, result_.scale());
        if (!q) return InvalidArgument("Decimal overflow in avg");
        out->Append<Int128>(*q);
      } else if (PhysicalTypeOf(result_) == PhysicalType::kInt64) {
        out->Append<int64_t>(static_cast<int64_t>(exact_[g] / n));
      } else if (PhysicalTypeOf(input_) == PhysicalType::kDouble) {
        out->Append<double>(sums_[g] / static_cast<double>(n));
      } else {
        out->Append<double>(static_cast<double>(exact_[g]) / static_cast<double>(n));
      }
    }
    return VectorPtr(out);
  }
  int64_t Bytes() const override { return static_cast<int64_t>(counts_.capacity() * 32); }

 private:
  // One loop per physical type, and a dense one when every row counts: the per-row type and
  // validity tests cost more than the additions (TPC-H Q1 averages three columns).
  template <typename S, typename Load>
  void Accumulate(const uint32_t* groups, int64_t rows, const ColumnVector& v, const uint8_t* mask, std::vector<S>& into, Load load) {
    if (v.validity.empty() && mask == nullptr) {
      for (int64_t i = 0; i < rows; ++i) {
        uint32_t g = groups[i];
        ++counts_[g];
        into[g] += load(i);
      }
      return;
    }
    for (int64_t i = 0; i < rows; ++i) {
      if (!MaskTakesRow(mask, i) || !v.IsValid(i)) continue;
      uint32_t g = groups[i];
      ++counts_[g];
      into[g] += load(i);
    }
  }

  SqlType input_, result_;
  std::vector<double> sums_;
  std::vector<Int128> exact_;
  std::vector<int64_t> counts_;
};

// min/max over fixed-width values.
template <typename T>
class MinMaxState final : public AggregateState {
 public:
  MinMaxState(SqlType type, bool is_max) : type_(std::move(type)), max_(is_max) {}

  void Resize(size_t groups) override {
    values_.resize(groups, T{});
    has_.resize(groups, 0);
  }
  Status Update(const uint32_t* groups, int64_t rows, const std::vector<VectorPtr>& args, const uint8_t* mask) override {
    const ColumnVector& v = *args[0];
    for (int64_t i = 0; i < rows; ++i) {
      if (!MaskTakesRow(mask, i) || !v.IsValid(i)) continue;
      T x;
      std::memcpy(&x, v.values.data() + static_cast<size_t>(i) * sizeof(T), sizeof(T));
      Fold(groups[i], x);
    }
    return OkStatus();
  }
  Status Merge(AggregateState& other, const std::vector<uint32_t>& mapping) override {
    auto& o = static_cast<MinMaxState&>(other);
    for (size_t g = 0; g < o.values_.size(); ++g) {
      if (o.has_[g]) Fold(mapping[g], o.values_[g]);
    }
    return OkStatus();
  }
  Result<VectorPtr> Finalize(size_t groups) override {
    auto out = NewVector(type_, static_cast<int64_t>(groups));
    for (size_t g = 0; g < groups; ++g) {
      if (has_[g]) {
        out->Append<T>(values_[g]);
      } else {
        out->AppendNull();
      }
    }
    return VectorPtr(out);
  }
  int64_t Bytes() const override { return static_cast<int64_t>(values_.capacity() * sizeof(T) + has_.capacity()); }

 private:
  void Fold(uint32_t g, T x) {
    if constexpr (std::is_same_v<T, double>) {
      if (std::isnan(x)) return;
    }
    if (!has_[g] || (max_ ? x > values_[g] : x < values_[g])) {
      values_[g] = x;
      has_[g] = 1;
    }
  }

  SqlType type_;
  bool max_;
  std::vector<T> values_;
  std::vector<uint8_t> has_;
};

class StringMinMaxState final : public AggregateState {
 public:
  StringMinMaxState(SqlType type, bool is_max) : type_(std::move(type)), max_(is_max) {}

  void Resize(size_t groups) override {
    values_.resize(groups);
    has_.resize(groups, 0);
  }
  Status Update(const uint32_t* groups, int64_t rows, const std::vector<VectorPtr>& args, const uint8_t* mask) override {
    const ColumnVector& v = *args[0];
    for (int64_t i = 0; i < rows; ++i) {
      if (!MaskTakesRow(mask, i) || !v.IsValid(i)) continue;
      Fold(groups[i], v.StringAt(i));
    }
    return OkStatus();
  }
  Status Merge(AggregateState& other, const std::vector<uint32_t>& mapping) override {
    auto& o = static_cast<StringMinMaxState&>(other);
    for (size_t g = 0; g < o.values_.size(); ++g) {
      if (o.has_[g]) Fold(mapping[g], o.values_[g]);
    }
    return OkStatus();
  }
  Result<VectorPtr> Finalize(size_t groups) override {
    auto out = NewVector(type_, static_cast<int64_t>(groups));
    for (size_t g = 0; g < groups; ++g) {
      if (has_[g]) {
        out->AppendString(values_[g]);
      } else {
        out->AppendNull();
      }
    }
    return VectorPtr(out);
  }
  int64_t Bytes() const override {
    int64_t n = static_cast<int64_t>(values_.capacity() * sizeof(std::string));
    for (const auto& s : values_) n += static_cast<int64_t>(s.capacity());
    return n;
  }

 private:
  void Fold(uint32_t g, std::string_view x) {
    if (!has_[g] || (max_ ? x > values_[g] : x < values_[g])) {
      values_[g].assign(x);
      has_[g] = 1;
    }
  }

  SqlType type_;
  bool max_;
  std::vector<std::string> values_;
  std::vector<uint8_t> has_;
};

// Functions kept as Values: arbitrary, min_by, max_by (rarely hot).
class ValueState final : public AggregateState {
 public:
  ValueState(std::string function, SqlType type, std::vector<SqlType> arg_types)
      : function_(std::move(function)), type_(std::move(type)), arg_types_(std::move(arg_types)) {}

  void Resize(size_t groups) override {
    values_.resize(groups, Value::Null(type_));
    keys_.resize(groups, Value());
    has_.resize(groups, 0);
  }
  Status Update(const uint32_t* groups, int64_t rows, const std::vector<VectorPtr>& args, const uint8_t* mask) override {
    for (int64_t i = 0; i < rows; ++i) {
      if (!MaskTakesRow(mask, i)) continue;
      if (function_ == "arbitrary" || function_ == "any_value") {
        if (has_[groups[i]] || !args[0]->IsValid(i)) continue;
        values_[groups[i]] = GetValue(*args[0], arg_types_[0], i);
        has_[groups[i]] = 1;
        continue;
      }
      if (!args[1]->IsValid(i)) continue;
      Fold(groups[i], GetValue(*args[1], arg_types_[1], i), [&] { return GetValue(*args[0], arg_types_[0], i); });
    }
    return OkStatus();
  }
  Status Merge(AggregateState& other, const std::vector<uint32_t>& mapping) override {
    auto& o = static_cast<ValueState&>(other);
    for (size_t g = 0; g < o.values_.size(); ++g) {
      if (!o.has_[g]) continue;
      uint32_t into = mapping[g];
      if (function_ == "arbitrary" || function_ == "any_value") {
        if (!has_[into]) {
          values_[into] = o.values_[g];
          has_[into] = 1;
        }
        continue;
      }
      Fold(into, o.keys_[g], [&] { return o.values_[g]; });
    }
    return OkStatus();
  }
  Result<VectorPtr> Finalize(size_t groups) override {
    auto out = NewVector(type_, static_cast<int64_t>(groups));
    for (size_t g = 0; g < groups; ++g) AppendValue(*out, has_[g] ? values_[g] : Value::Null(type_));
    return VectorPtr(out);
  }
  int64_t Bytes() const override { return static_cast<int64_t>(values_.capacity() * 2 * sizeof(Value)); }

 private:
  template <typename F>
  void Fold(uint32_t g, const Value& key, F value) {
    bool better = !has_[g];
    if (!better) {
      auto c = CompareValues(key, keys_[g]);
      better = c && (function_ == "max_by" ? *c > 0 : *c < 0);
    }
    if (better) {
      keys_[g] = key;
      values_[g] = value();
      has_[g] = 1;
    }
  }

  std::string function_;
  SqlType type_;
  std::vector<SqlType> arg_types_;
  std::vector<Value> values_, keys_;
  std::vector<uint8_t> has_;
};

class BoolState final : public AggregateState {
 public:
  explicit BoolState(bool is_and) : and_(is_and) {}

  void Resize(size_t groups) override {
    values_.resize(groups, and_ ? 1 : 0);
    has_.resize(groups, 0);
  }
  Status Update(const uint32_t* groups, int64_t rows, const std::vector<VectorPtr>& args, const uint8_t* mask) override {
    const ColumnVector& v = *args[0];
    for (int64_t i = 0; i < rows; ++i) {
      if (!MaskTakesRow(mask, i) || !v.IsValid(i)) continue;
      Fold(groups[i], v.Data<uint8_t>()[i]);
    }
    return OkStatus();
  }
  Status Merge(AggregateState& other, const std::vector<uint32_t>& mapping) override {
    auto& o = static_cast<BoolState&>(other);
    for (size_t g = 0; g < o.values_.size(); ++g) {
      if (o.has_[g]) Fold(mapping[g], o.values_[g]);
    }
    return OkStatus();
  }
  Result<VectorPtr> Finalize(size_t groups) override {
    auto out = NewVector(SqlType::Boolean(), static_cast<int64_t>(groups));
    for (size_t g = 0; g < groups; ++g) {
      if (has_[g]) {
        out->Append<uint8_t>(values_[g]);
      } else {
        out->AppendNull();
      }
    }
    return VectorPtr(out);
  }
  int64_t Bytes() const override { return static_cast<int64_t>(values_.capacity() * 2); }

 private:
  void Fold(uint32_t g, uint8_t x) {
    values_[g] = and_ ? (values_[g] && x) : (values_[g] || x);
    has_[g] = 1;
  }

  bool and_;
  std::vector<uint8_t> values_, has_;
};

// Variance and standard deviation with Welford's update and Chan's merge.
class VarianceState final : public AggregateState {
 public:
  explicit VarianceState(std::string function) : function_(std::move(function)) {}

  void Resize(size_t groups) override {
    n_.resize(groups, 0);
    mean_.resize(groups, 0);
    m2_.resize(groups, 0);
  }
  Status Update(const uint32_t* groups, int64_t rows, const std::vector<VectorPtr>& args, const uint8_t* mask) override {
    const ColumnVector& v = *args[0];
    for (int64_t i = 0; i < rows; ++i) {
      if (!MaskTakesRow(mask, i) || !v.IsValid(i)) continue;
      Combine(groups[i], 1, v.Data<double>()[i], 0);
    }
    return OkStatus();
  }
  Status Merge(AggregateState& other, const std::vector<uint32_t>& mapping) override {
    auto& o = static_cast<VarianceState&>(other);
    for (size_t g = 0; g < o.n_.size(); ++g) {
      if (o.n_[g] > 0) Combine(mapping[g], o.n_[g], o.mean_[g], o.m2_[g]);
    }
    return OkStatus();
  }
  Result<VectorPtr> Finalize(size_t groups) override {
    auto out = NewVector(SqlType::Double(), static_cast<int64_t>(groups));
    bool population = function_ == "stddev_pop" || function_ == "var_pop";
    bool root = function_.starts_with("stddev");
    for (size_t g = 0; g < groups; ++g) {
      double n = n_[g];
      if (n == 0 || (!population && n < 2)) {
        out->AppendNull();
        continue;
      }
      double variance = m2_[g] / (population ? n : n - 1);
      out->Append<double>(root ? std::sqrt(variance) : variance);
    }
    return VectorPtr(out);
  }
  int64_t Bytes() const override { return static_cast<int64_t>(n_.capacity() * 24); }

 private:
  void Combine(uint32_t g, double n, double mean, double m2) {
    double total = n_[g] + n;
    double delta = mean - mean_[g];
    mean_[g] += delta * n / total;
    m2_[g] += m2 + delta * delta * n_[g] * n / total;
    n_[g] = total;
  }

  std::string function_;
  std::vector<double> n_, mean_, m2_;
};

// approx_distinct: the exact set of 64-bit hashes while small, then HyperLogLog with 2048
// registers (standard error 2.3%, Trino's default).
class ApproxDistinctState final : public AggregateState {
 public:
  static constexpr size_t kExactLimit = 2048;
  static constexpr int kBits = 11;

  void Resize(size_t groups) override { groups_.resize(groups); }
  Status Update(const uint32_t* groups, int64_t rows, const std::vector<VectorPtr>& args, const uint8_t* mask) override {
    encoder_.Encode({args[0].get()}, rows);
    for (int64_t i = 0; i < rows; ++i) {
      if (!MaskTakesRow(mask, i) || !args[0]->IsValid(i)) continue;
      Add(groups_[groups[i]], encoder_.hash(i));
    }
    return OkStatus();
  }
  Status Merge(AggregateState& other, const std::vector<uint32_t>& mapping) override {
    auto& o = static_cast<ApproxDistinctState&>(other);
    for (size_t g = 0; g < o.groups_.size(); ++g) {
      Group& into = groups_[mapping[g]];
      Group& from = o.groups_[g];
      if (!from.registers.empty()) {
        ToRegisters(into);
        for (size_t r = 0; r < into.registers.size(); ++r) into.registers[r] = std::max(into.registers[r], from.registers[r]);
      } else {
        for (uint64_t h : from.hashes) Add(into, h);
      }
    }
    return OkStatus();
  }
  Result<VectorPtr> Finalize(size_t groups) override {
    auto out = NewVector(SqlType::Bigint(), static_cast<int64_t>(groups));
    for (size_t g = 0; g < groups; ++g) out->Append<int64_t>(Estimate(groups_[g]));
    return VectorPtr(out);
  }
  int64_t Bytes() const override {
    int64_t n = static_cast<int64_t>(groups_.capacity() * sizeof(Group));
    for (const auto& g : groups_) n += static_cast<int64_t>(g.hashes.size() * 16 + g.registers.capacity());
    return n;
  }

 private:
  struct Group {
    std::unordered_set<uint64_t> hashes;
    std::vector<uint8_t> registers;
  };

  static void Insert(std::vector<uint8_t>& registers, uint64_t h) {
    size_t index = h >> (64 - kBits);
    uint64_t rest = (h << kBits) | (uint64_t{1} << (kBits - 1));
    auto rank = static_cast<uint8_t>(__builtin_clzll(rest) + 1);
    registers[index] = std::max(registers[index], rank);
  }
  static void ToRegisters(Group& g) {
    if (!g.registers.empty()) return;
    g.registers.assign(size_t{1} << kBits, 0);
    for (uint64_t h : g.hashes) Insert(g.registers, h);
    g.hashes.clear();
  }
  static void Add(Group& g, uint64_t h) {
    if (!g.registers.empty()) {
      Insert(g.registers, h);
      return;
    }
    g.hashes.insert(h);
    if (g.hashes.size() > kExactLimit) ToRegisters(g);
  }
  static int64_t Estimate(const Group& g) {
    if (g.registers.empty()) return static_cast<int64_t>(g.hashes.size());
    double m = static_cast<double>(g.registers.size());
    double sum = 0;
    int zeros = 0;
    for (uint8_t r : g.registers) {
      sum += std::ldexp(1.0, -r);
      zeros += r == 0;
    }
    double estimate = 0.7213 / (1 + 1.079 / m) * m * m / sum;
    if (estimate <= 2.5 * m && zeros > 0) estimate = m * std::log(m / zeros);
    return static_cast<int64_t>(std::llround(estimate));
  }

  KeyEncoder encoder_;
  std::vector<Group> groups_;
};

// approx_percentile: keeps the values and picks the one at rank round(p * (n - 1)).
template <typename T>
class PercentileState final : public AggregateState {
 public:
  explicit PercentileState(SqlType type) : type_(std::move(type)) {}

  void Resize(size_t groups) override { values_.resize(groups); }
  Status Update(const uint32_t* groups, int64_t rows, const std::vector<VectorPtr>& args, const uint8_t* mask) override {
    const ColumnVector& v = *args[0];
    const ColumnVector& p = *args[1];
    for (int64_t i = 0; i < rows; ++i) {
      if (!MaskTakesRow(mask, i) || !v.IsValid(i)) continue;
      if (percentage_ < 0 && p.IsValid(i)) {
        percentage_ = p.Data<double>()[i];
        if (percentage_ < 0 || percentage_ > 1) return InvalidArgument("Percentile must be between 0 and 1");
      }
      T x;
      std::memcpy(&x, v.values.data() + static_cast<size_t>(i) * sizeof(T), sizeof(T));
      values_[groups[i]].push_back(x);
      ++count_;
    }
    return OkStatus();
  }
  Status Merge(AggregateState& other, const std::vector<uint32_t>& mapping) override {
    auto& o = static_cast<PercentileState&>(other);
    if (percentage_ < 0) percentage_ = o.percentage_;
    for (size_t g = 0; g < o.values_.size(); ++g) {
      auto& into = values_[mapping[g]];
      into.insert(into.end(), o.values_[g].begin(), o.values_[g].end());
    }
    count_ += o.count_;
    return OkStatus();
  }
  Result<VectorPtr> Finalize(size_t groups) override {
    auto out = NewVector(type_, static_cast<int64_t>(groups));
    for (size_t g = 0; g < groups; ++g) {
      auto& v = values_[g];
      if (v.empty()) {
        out->AppendNull();
        continue;
      }
      auto rank = static_cast<size_t>(std::llround(percentage_ * static_cast<double>(v.size() - 1)));
      std::nth_element(v.begin(), v.begin() + static_cast<std::ptrdiff_t>(rank), v.end());
      out->Append<T>(v[rank]);
    }
    return VectorPtr(out);
  }
  int64_t Bytes() const override { return count_ * static_cast<int64_t>(sizeof(T)) + static_cast<int64_t>(values_.capacity() * 24); }

 private:
  SqlType type_;
  double percentage_ = -1;
  int64_t count_ = 0;
  std::vector<std::vector<T>> values_;
};

// DISTINCT: forwards each (group, arguments) pair to the inner state once.
class DistinctState final : public AggregateState {
 public:
  DistinctState(std::unique_ptr<AggregateState> inner, std::vector<SqlType> arg_types)
      : inner_(std::move(inner)), arg_types_(std::move(arg_types)) {}

  void Resize(size_t groups) override {
    inner_->Resize(groups);
    groups_ = groups;
  }
  Status Update(const uint32_t* groups, int64_t rows, const std::vector<VectorPtr>& args, const uint8_t* mask) override {
    std::vector<const ColumnVector*> columns;
    for (const auto& a : args) columns.push_back(a.get());
    encoder_.Encode(columns, rows);
    std::vector<uint32_t> fresh;
    for (int64_t i = 0; i < rows; ++i) {
      if (!MaskTakesRow(mask, i)) continue;
      key_.assign(reinterpret_cast<const char*>(&groups[i]), 4);
      key_ += encoder_.key(i);
      bool inserted;
      seen_.FindOrInsert(key_, HashKey(key_), inserted);
      if (inserted) fresh.push_back(static_cast<uint32_t>(i));
    }
    if (fresh.empty()) return OkStatus();
    std::vector<VectorPtr> picked;
    for (const auto& a : args) picked.push_back(Gather(*a, fresh.data(), static_cast<int64_t>(fresh.size())));
    std::vector<uint32_t> picked_groups;
    for (uint32_t i : fresh) picked_groups.push_back(groups[i]);
    return inner_->Update(picked_groups.data(), static_cast<int64_t>(fresh.size()), picked, nullptr);
  }
  Status Merge(AggregateState& other, const std::vector<uint32_t>& mapping) override {
    auto& o = static_cast<DistinctState&>(other);
    // Decode the other's (group, arguments) keys and forward the new ones.
    std::vector<uint32_t> groups;
    for (uint32_t id = 0; id < o.seen_.size(); ++id) {
      std::string_view key = o.seen_.KeyAt(id);
      uint32_t g;
      std::memcpy(&g, key.data(), 4);
      key_.assign(reinterpret_cast<const char*>(&mapping[g]), 4);
      key_ += key.substr(4);
      // Within one group the keys are distinct, so the other's hash is reused when the group id stays.
      uint64_t hash = mapping[g] == g ? o.seen_.HashAt(id) : HashKey(key_);
      bool inserted;
      seen_.FindOrInsert(key_, hash, inserted);
      if (!inserted) continue;
      groups.push_back(mapping[g]);
      rows_.push_back(std::string(key.substr(4)));
    }
    if (groups.empty()) return OkStatus();
    std::vector<VectorPtr> args = DecodeRows(rows_, arg_types_);
    rows_.clear();
    return inner_->Update(groups.data(), static_cast<int64_t>(groups.size()), args, nullptr);
  }
  Result<VectorPtr> Finalize(size_t groups) override { return inner_->Finalize(groups); }
  int64_t Bytes() const override { return inner_->Bytes() + seen_.Bytes(); }

 private:
  static std::vector<VectorPtr> DecodeRows(const std::vector<std::string>& rows, const std::vector<SqlType>& types) {
    std::vector<MutableVectorPtr> out;
    for (const auto& t : types) out.push_back(NewVector(t, static_cast<int64_t>(rows.size())));
    for (const auto& key : rows) DecodeKey(key, out);
    return {out.begin(), out.end()};
  }

  std::unique_ptr<AggregateState> inner_;
  std::vector<SqlType> arg_types_;
  size_t groups_ = 0;
  KeyEncoder encoder_;
  KeyTable seen_;
  std::string key_;  // Reused to build keys without allocating per row.
  std::vector<std::string> rows_;
};

// DISTINCT over one 8-byte argument (every integer, date and timestamp type, doubles): the
// (group, value) pairs live inline in one open-addressing table, so a probe touches one cache
// line instead of a slot, a hash and a key (count(DISTINCT customer_id) is a dashboard staple).
class FixedDistinctState final : public AggregateState {
 public:
  FixedDistinctState(std::unique_ptr<AggregateState> inner, SqlType arg_type)
      : inner_(std::move(inner)), arg_type_(std::move(arg_type)), is_double_(PhysicalTypeOf(arg_type_) == PhysicalType::kDouble) {
    slots_.assign(kInitialSlots, Slot{});
  }

  void Resize(size_t groups) override { inner_->Resize(groups); }
  Status Update(const uint32_t* groups, int64_t rows, const std::vector<VectorPtr>& args, const uint8_t* mask) override {
    const ColumnVector& v = *args[0];
    const auto* values = v.Data<uint64_t>();
    fresh_rows_.clear();
    // Hash the chunk first so the slots of rows ahead can be prefetched: the table is usually
    // far larger than the cache and each probe would otherwise wait on memory.
    keys_.resize(static_cast<size_t>(rows));
    hashes_.resize(static_cast<size_t>(rows));
    for (int64_t i = 0; i < rows; ++i) {
      bool valid = v.IsValid(i);
      uint64_t key = valid ? Normalize(values[i]) : 0;
      keys_[static_cast<size_t>(i)] = key;
      hashes_[static_cast<size_t>(i)] = Mix(key, groups[i], !valid);
    }
    constexpr int64_t kAhead = 16;
    for (int64_t i = 0; i < rows; ++i) {
      if (i + kAhead < rows) __builtin_prefetch(&slots_[hashes_[static_cast<size_t>(i + kAhead)] & (slots_.size() - 1)]);
      if (!MaskTakesRow(mask, i)) continue;
      if (Insert(groups[i], keys_[static_cast<size_t>(i)], !v.IsValid(i), hashes_[static_cast<size_t>(i)])) {
        fresh_rows_.push_back(static_cast<uint32_t>(i));
      }
    }
    if (fresh_rows_.empty()) return OkStatus();
    fresh_groups_.clear();
    for (uint32_t i : fresh_rows_) fresh_groups_.push_back(groups[i]);
    std::vector<VectorPtr> picked{Gather(v, fresh_rows_.data(), static_cast<int64_t>(fresh_rows_.size()))};
    return inner_->Update(fresh_groups_.data(), static_cast<int64_t>(fresh_groups_.size()), picked, nullptr);
  }
  Status Merge(AggregateState& other, const std::vector<uint32_t>& mapping) override {
    auto& o = static_cast<FixedDistinctState&>(other);
    auto fresh = NewVector(arg_type_, static_cast<int64_t>(o.size_));
    fresh_groups_.clear();
    for (const Slot& s : o.slots_) {
      if (s.state == kEmpty) continue;
      uint32_t g = mapping[s.group];
      if (!Insert(g, s.value, s.state == kNull, Mix(s.value, g, s.state == kNull))) continue;
      fresh_groups_.push_back(g);
      if (s.state == kNull) {
        fresh->AppendNull();
      } else {
        if (!fresh->validity.empty()) fresh->validity.push_back(1);
        fresh->values.Push(s.value);
        ++fresh->length;
      }
    }
    if (fresh_groups_.empty()) return OkStatus();
    std::vector<VectorPtr> args{VectorPtr(fresh)};
    return inner_->Update(fresh_groups_.data(), static_cast<int64_t>(fresh_groups_.size()), args, nullptr);
  }
  Result<VectorPtr> Finalize(size_t groups) override { return inner_->Finalize(groups); }
  int64_t Bytes() const override { return inner_->Bytes() + static_cast<int64_t>(slots_.capacity() * sizeof(Slot)); }

 private:
  static constexpr size_t kInitialSlots = 256;
  static constexpr uint32_t kEmpty = 0, kValue = 1, kNull = 2;
  struct Slot {
    uint64_t value = 0;
    uint32_t group = 0;
    uint32_t state = kEmpty;
  };

  // Doubles group as SQL compares them: -0.0 with 0.0, every NaN with every other.
  uint64_t Normalize(uint64_t bits) const {
    if (!is_double_) return bits;
    double d;
    std::memcpy(&d, &bits, 8);
    if (d == 0) d = 0;
    if (std::isnan(d)) d = std::numeric_limits<double>::quiet_NaN();
    std::memcpy(&bits, &d, 8);
    return bits;
  }
  static uint64_t Mix(uint64_t value, uint32_t group, bool null) {
    uint64_t h = value ^ (static_cast<uint64_t>(group) * 0x9E3779B97F4A7C15ULL) ^ (null ? 0x5555555555555555ULL : 0);
    h ^= h >> 33;
    h *= 0xff51afd7ed558ccdULL;
    h ^= h >> 33;
    h *= 0xc4ceb9fe1a85ec53ULL;
    h ^= h >> 33;
    return h;
  }
  // Adds the pair; true when it was not there before.
  bool Insert(uint32_t group, uint64_t value, bool null, uint64_t hash) {
    uint32_t state = null ? kNull : kValue;
    uint64_t mask = slots_.size() - 1;
    for (uint64_t s = hash & mask;; s = (s + 1) & mask) {
      Slot& slot = slots_[s];
      if (slot.state == kEmpty) {
        slot = Slot{value, group, state};
        if (++size_ * 4 > slots_.size() * 3) Grow();
        return true;
      }
      if (slot.value == value && slot.group == group && slot.state == state) return false;
    }
  }
  void Grow() {
    std::vector<Slot> old = std::move(slots_);
    slots_.assign(old.size() * 2, Slot{});
    uint64_t mask = slots_.size() - 1;
    for (const Slot& o : old) {
      if (o.state == kEmpty) continue;
      uint64_t s = Mix(o.value, o.group, o.state == kNull) & mask;
      while (slots_[s].state != kEmpty) s = (s + 1) & mask;
      slots_[s] = o;
    }
  }

  std::unique_ptr<AggregateState> inner_;
  SqlType arg_type_;
  bool is_double_;
  std::vector<Slot> slots_;
  size_t size_ = 0;
  std::vector<uint32_t> fresh_rows_, fresh_groups_;
  std::vector<uint64_t> keys_, hashes_;  // Per chunk, reused.
};

Result<std::unique_ptr<AggregateState>> MakePlain(const AggregateCall& call, const std::vector<SqlType>& types) {
  const std::string& f = call.function;
  const SqlType& result = call.type;
  if (f == "count") {
    return std::unique_ptr<AggregateState>(std::make_unique<CountState>(call.star || types.empty() ? CountState::Mode::kRows : CountState::Mode::kValues));
  }
  if (f == "count_if") return std::unique_ptr<AggregateState>(std::make_unique<CountState>(CountState::Mode::kTrue));
  if (f == "sum") {
    switch (PhysicalTypeOf(result)) {
      case PhysicalType::kInt64: return std::unique_ptr<AggregateState>(std::make_unique<SumState<int64_t>>(result));
      case PhysicalType::kDouble: return std::unique_ptr<AggregateState>(std::make_unique<SumState<double>>(result));
      case PhysicalType::kInt128: return std::unique_ptr<AggregateState>(std::make_unique<SumState<Int128>>(result));
      default: break;
    }
  }
  if (f == "avg") return std::unique_ptr<AggregateState>(std::make_unique<AvgState>(types[0], result));
  if (f == "min" || f == "max") {
    bool is_max = f == "max";
    switch (PhysicalTypeOf(types[0])) {
      case PhysicalType::kBool: return std::unique_ptr<AggregateState>(std::make_unique<MinMaxState<uint8_t>>(result, is_max));
      case PhysicalType::kInt64: return std::unique_ptr<AggregateState>(std::make_unique<MinMaxState<int64_t>>(result, is_max));
      case PhysicalType::kDouble: return std::unique_ptr<AggregateState>(std::make_unique<MinMaxState<double>>(result, is_max));
      case PhysicalType::kInt128: return std::unique_ptr<AggregateState>(std::make_unique<MinMaxState<Int128>>(result, is_max));
      case PhysicalType::kString: return std::unique_ptr<AggregateState>(std::make_unique<StringMinMaxState>(result, is_max));
    }
  }
  if (f == "arbitrary" || f == "any_value" || f == "min_by" || f == "max_by") {
    return std::unique_ptr<AggregateState>(std::make_unique<ValueState>(f, result, types));
  }
  if (f == "bool_and" || f == "every") return std::unique_ptr<AggregateState>(std::make_unique<BoolState>(true));
  if (f == "bool_or") return std::unique_ptr<AggregateState>(std::make_unique<BoolState>(false));
  if (f == "stddev" || f == "stddev_samp" || f == "stddev_pop" || f == "variance" || f == "var_samp" || f == "var_pop") {
    std::string name = f == "stddev" ? "stddev_samp" : f == "variance" ? "var_samp" : f;
    return std::unique_ptr<AggregateState>(std::make_unique<VarianceState>(name));
  }
  if (f == "approx_distinct") return std::unique_ptr<AggregateState>(std::make_unique<ApproxDistinctState>());
  if (f == "array_agg" || f == "map_agg") return MakeNestedAggregateState(call, types);
  if (f == "approx_percentile") {
    switch (PhysicalTypeOf(types[0])) {
      case PhysicalType::kInt64: return std::unique_ptr<AggregateState>(std::make_unique<PercentileState<int64_t>>(result));
      case PhysicalType::kDouble: return std::unique_ptr<AggregateState>(std::make_unique<PercentileState<double>>(result));
      case PhysicalType::kInt128: return std::unique_ptr<AggregateState>(std::make_unique<PercentileState<Int128>>(result));
      default: break;
    }
  }
  return NotImplemented("aggregate {}({}) is not supported by the executor yet", f, types.empty() ? "" : types[0].ToString());
}

}  // namespace

Result<std::unique_ptr<AggregateState>> MakeAggregateState(const AggregateCall& call, const std::vector<SqlType>& arg_types) {
  FLOE_ASSIGN_OR_RETURN(auto state, MakePlain(call, arg_types));
  if (call.distinct && arg_types.size() == 1) {
    PhysicalType physical = PhysicalTypeOf(arg_types[0]);
    if (physical == PhysicalType::kInt64 || physical == PhysicalType::kDouble) {
      return std::unique_ptr<AggregateState>(std::make_unique<FixedDistinctState>(std::move(state), arg_types[0]));
    }
  }
  if (call.distinct && !arg_types.empty()) {
    return std::unique_ptr<AggregateState>(std::make_unique<DistinctState>(std::move(state), arg_types));
  }
  return state;
}

}  // namespace floe::sql

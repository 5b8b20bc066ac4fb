#include "sql/execution/sort_keys.h"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <numeric>

#include "sql/function/scalar_evaluation.h"

namespace floe::sql {
namespace {

int CompareValues(const ColumnVector& x, int64_t a, const ColumnVector& y, int64_t b, PhysicalType p) {
  switch (p) {
    case PhysicalType::kBool: {
      auto u = x.Data<uint8_t>()[a], v = y.Data<uint8_t>()[b];
      return u < v ? -1 : u > v;
    }
    case PhysicalType::kInt64: {
      auto u = x.Data<int64_t>()[a], v = y.Data<int64_t>()[b];
      return u < v ? -1 : u > v;
    }
    case PhysicalType::kDouble: {
      double u = x.Data<double>()[a], v = y.Data<double>()[b];
      bool nu = std::isnan(u), nv = std::isnan(v);
      if (nu || nv) return nu == nv ? 0 : nu ? 1 : -1;  // NaN sorts after every number.
      return u < v ? -1 : u > v;
    }
    case PhysicalType::kInt128: {
      Int128 u, v;
      std::memcpy(&u, x.values.data() + a * 16, 16);
      std::memcpy(&v, y.values.data() + b * 16, 16);
      return u < v ? -1 : u > v;
    }
    case PhysicalType::kString: {
      int c = x.StringAt(a).compare(y.StringAt(b));
      return c < 0 ? -1 : c > 0;
    }
  }
  return 0;
}

}  // namespace

Result<std::vector<SortSpec>> CompileSortSpecs(const std::vector<SortKey>& order,
                                               const std::vector<OutputColumn>& input,
                                               const std::map<ColumnId, Value>* outer) {
  ColumnLayout layout = ColumnLayout::Of(input, outer);
  std::vector<SortSpec> specs;
  for (const auto& k : order) {
    SortSpec spec;
    FLOE_ASSIGN_OR_RETURN(spec.key, CompileExpression(*k.expr, layout));
    spec.type = spec.key->type();
    spec.physical = PhysicalTypeOf(spec.type);
    spec.descending = k.descending;
    spec.nulls_first = k.nulls_first;
    specs.push_back(std::move(spec));
  }
  return specs;
}

int CompareSortKeys(const std::vector<SortSpec>& specs, const std::vector<VectorPtr>& left, int64_t a,
                    const std::vector<VectorPtr>& right, int64_t b) {
  for (size_t k = 0; k < specs.size(); ++k) {
    const ColumnVector& x = *left[k];
    const ColumnVector& y = *right[k];
    bool nx = !x.IsValid(a), ny = !y.IsValid(b);
    if (nx || ny) {
      if (nx && ny) continue;
      return nx == specs[k].nulls_first ? -1 : 1;
    }
    int c = specs[k].type.IsNested() ? CompareForSort(GetValue(x, specs[k].type, a), GetValue(y, specs[k].type, b))
                                     : CompareValues(x, a, y, b, specs[k].physical);
    if (c != 0) return specs[k].descending ? -c : c;
  }
  return 0;
}

Result<std::vector<VectorPtr>> EvaluateSortKeys(const std::vector<SortSpec>& specs, const DataChunk& chunk, QueryContext& context) {
  std::vector<VectorPtr> keys;
  for (const auto& s : specs) {
    FLOE_ASSIGN_OR_RETURN(VectorPtr k, s.key->Evaluate(chunk, context));
    keys.push_back(std::move(k));
  }
  return keys;
}

Result<DataChunk> SortRows(const std::vector<DataChunk>& chunks, const std::vector<SqlType>& types, const std::vector<SortSpec>& specs,
                           int64_t keep, QueryContext& context) {
  DataChunk all;
  for (const auto& c : chunks) all.rows += c.rows;
  for (size_t i = 0; i < types.size(); ++i) all.columns.push_back(chunks.size() == 1 ? chunks[0].columns[i] : Concatenate(chunks, i, types[i]));
  FLOE_ASSIGN_OR_RETURN(std::vector<VectorPtr> keys, EvaluateSortKeys(specs, all, context));
  std::vector<uint32_t> order(static_cast<size_t>(all.rows));
  std::iota(order.begin(), order.end(), 0u);
  auto less = [&](uint32_t a, uint32_t b) { return CompareSortKeys(specs, keys, a, keys, b) < 0; };
  if (keep < all.rows) {
    std::partial_sort(order.begin(), order.begin() + keep, order.end(), [&](uint32_t a, uint32_t b) {
      int c = CompareSortKeys(specs, keys, a, keys, b);
      return c != 0 ? c < 0 : a < b;  // Stable among ties.
    });
    order.resize(static_cast<size_t>(keep));
  } else {
    std::stable_sort(order.begin(), order.end(), less);
  }
  return GatherChunk(all, order);
}

}  // namespace floe::sql

// ORDER BY and top-N: workers collect chunks (top-N prunes each worker's rows to the best N as
// they grow); the final step sorts row indexes by the key vectors and gathers the result in
// order. Ties keep their input order (stable sort).
#include <algorithm>
#include <cmath>
#include <cstring>
#include <numeric>

#include "sql/execution/physical_operator.h"

namespace floe::sql {
namespace {

struct SortSpec {
  ExprNodePtr key;
  bool descending = false;
  bool nulls_first = false;
};

int CompareRows(const ColumnVector& v, PhysicalType p, int64_t a, int64_t b) {
  switch (p) {
    case PhysicalType::kBool: {
      auto x = v.Data<uint8_t>()[a], y = v.Data<uint8_t>()[b];
      return x < y ? -1 : x > y;
    }
    case PhysicalType::kInt64: {
      auto x = v.Data<int64_t>()[a], y = v.Data<int64_t>()[b];
      return x < y ? -1 : x > y;
    }
    case PhysicalType::kDouble: {
      double x = v.Data<double>()[a], y = v.Data<double>()[b];
      bool nx = std::isnan(x), ny = std::isnan(y);
      if (nx || ny) return nx == ny ? 0 : nx ? 1 : -1;  // NaN sorts after every number.
      return x < y ? -1 : x > y;
    }
    case PhysicalType::kInt128: {
      Int128 x, y;
      std::memcpy(&x, v.values.data() + a * 16, 16);
      std::memcpy(&y, v.values.data() + b * 16, 16);
      return x < y ? -1 : x > y;
    }
    case PhysicalType::kString: {
      int c = v.StringAt(a).compare(v.StringAt(b));
      return c < 0 ? -1 : c > 0;
    }
  }
  return 0;
}

// The rows of `chunks` (columns typed `types`) in key order; at most `keep` rows.
Result<DataChunk> SortRows(const std::vector<DataChunk>& chunks, const std::vector<SqlType>& types, const std::vector<SortSpec>& specs,
                           int64_t keep, QueryContext& context) {
  DataChunk all;
  for (const auto& c : chunks) all.rows += c.rows;
  for (size_t i = 0; i < types.size(); ++i) all.columns.push_back(chunks.size() == 1 ? chunks[0].columns[i] : Concatenate(chunks, i, types[i]));
  std::vector<VectorPtr> keys;
  std::vector<PhysicalType> physical;
  for (const auto& s : specs) {
    FLOE_ASSIGN_OR_RETURN(VectorPtr k, s.key->Evaluate(all, context));
    keys.push_back(std::move(k));
    physical.push_back(PhysicalTypeOf(s.key->type()));
  }
  std::vector<uint32_t> order(static_cast<size_t>(all.rows));
  std::iota(order.begin(), order.end(), 0u);
  auto less = [&](uint32_t a, uint32_t b) {
    for (size_t k = 0; k < keys.size(); ++k) {
      const ColumnVector& v = *keys[k];
      bool na = !v.IsValid(a), nb = !v.IsValid(b);
      if (na || nb) {
        if (na && nb) continue;
        return na == specs[k].nulls_first;
      }
      int c = CompareRows(v, physical[k], a, b);
      if (c != 0) return specs[k].descending ? c > 0 : c < 0;
    }
    return false;
  };
  if (keep < all.rows) {
    std::partial_sort(order.begin(), order.begin() + keep, order.end(), [&](uint32_t a, uint32_t b) {
      if (less(a, b)) return true;
      if (less(b, a)) return false;
      return a < b;  // Stable among ties.
    });
    order.resize(static_cast<size_t>(keep));
  } else {
    std::stable_sort(order.begin(), order.end(), less);
  }
  return GatherChunk(all, order);
}

class SortLocal final : public LocalSinkState {
 public:
  SortLocal(MemoryTracker& tracker, const char* name) : reservation(tracker, name) {}
  std::vector<DataChunk> chunks;
  int64_t rows = 0;
  int64_t bytes = 0;
  MemoryReservation reservation;
};

class SortSink final : public Sink {
 public:
  SortSink(std::vector<SqlType> types, std::vector<SortSpec> specs, std::optional<int64_t> limit, int64_t offset)
      : types_(std::move(types)), specs_(std::move(specs)), limit_(limit), offset_(offset) {}

  std::unique_ptr<LocalSinkState> MakeLocal(QueryContext& context) override {
    return std::make_unique<SortLocal>(context.memory(), limit_ ? "TopN" : "Sort");
  }

  Status Consume(LocalSinkState& state, DataChunk&& chunk, QueryContext& context) override {
    auto& local = static_cast<SortLocal&>(state);
    local.rows += chunk.rows;
    local.bytes += chunk.Bytes();
    local.chunks.push_back(std::move(chunk));
    if (limit_) {
      int64_t keep = *limit_ + offset_;
      if (local.rows > std::max<int64_t>(4 * keep, 65536)) {
        FLOE_ASSIGN_OR_RETURN(DataChunk best, SortRows(local.chunks, types_, specs_, keep, context));
        local.chunks.clear();
        local.rows = best.rows;
        local.bytes = best.Bytes();
        local.chunks.push_back(std::move(best));
      }
    }
    return local.reservation.Resize(local.bytes);
  }

  Status Combine(std::unique_ptr<LocalSinkState> state, QueryContext& context) override {
    auto& local = static_cast<SortLocal&>(*state);
    for (auto& c : local.chunks) chunks_.push_back(std::move(c));
    locals_.push_back(std::move(state));  // Keeps the memory charged until Finalize.
    return OkStatus();
  }

  Result<Materialized> Finalize(QueryContext& context) override {
    Materialized out;
    out.ordered = true;
    int64_t total = 0;
    for (const auto& c : chunks_) total += c.rows;
    if (total == 0) return out;
    int64_t keep = limit_ ? std::min(total, *limit_ + offset_) : total;
    FLOE_ASSIGN_OR_RETURN(DataChunk sorted, SortRows(chunks_, types_, specs_, keep, context));
    chunks_.clear();
    for (int64_t at = std::min(offset_, sorted.rows); at < sorted.rows; at += kChunkRows) {
      out.chunks.push_back(SliceChunk(sorted, at, std::min(kChunkRows, sorted.rows - at)));
    }
    locals_.clear();
    return out;
  }

 private:
  std::vector<SqlType> types_;
  std::vector<SortSpec> specs_;
  std::optional<int64_t> limit_;
  int64_t offset_;
  std::vector<DataChunk> chunks_;
  std::vector<std::unique_ptr<LocalSinkState>> locals_;
};

}  // namespace

Result<std::unique_ptr<Sink>> MakeSort(const LogicalOperator& node, const std::map<ColumnId, Value>* outer, QueryContext& context) {
  const auto& input = node.children[0]->output;
  ColumnLayout layout = ColumnLayout::Of(input, outer);
  std::vector<SortSpec> specs;
  for (const auto& k : node.order) {
    SortSpec spec;
    FLOE_ASSIGN_OR_RETURN(spec.key, CompileExpression(*k.expr, layout));
    spec.descending = k.descending;
    spec.nulls_first = k.nulls_first;
    specs.push_back(std::move(spec));
  }
  std::vector<SqlType> types;
  for (const auto& c : input) types.push_back(c.type);
  std::optional<int64_t> limit;
  int64_t offset = 0;
  if (node.kind == LogicalKind::kTopN) {
    limit = node.limit;
    offset = node.offset;
  }
  return std::unique_ptr<Sink>(std::make_unique<SortSink>(std::move(types), std::move(specs), limit, offset));
}

}  // namespace floe::sql

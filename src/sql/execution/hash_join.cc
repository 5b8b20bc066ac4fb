// Hash join: the build side (the plan's right child, the smaller input) is materialized and
// indexed by its equi-join keys; probe chunks stream through in parallel. Conditions that are
// not `left = right` equalities are checked on the candidate pairs. Without equalities every
// pair is a candidate (a nested loop, which also serves cross joins). Left and full joins emit
// unmatched probe rows per chunk; right and full joins emit unmatched build rows in Finish.
// Semi and anti joins emit probe rows with (without) a match; right semi and right anti joins
// mark the build rows that match and emit those (the others) in Finish.
#include <atomic>
#include <limits>
#include <set>

#include "sql/execution/key_table.h"
#include "sql/execution/physical_operator.h"

namespace floe::sql {
namespace {

std::set<int32_t> ColumnsOf(const BoundExpr& e) {
  std::vector<ColumnId> ids;
  e.CollectColumns(ids);
  std::set<int32_t> out;
  for (ColumnId id : ids) out.insert(id.value());
  return out;
}

bool Within(const std::set<int32_t>& ids, const std::vector<OutputColumn>& side) {
  if (ids.empty()) return false;
  for (int32_t id : ids) {
    bool found = false;
    for (const auto& c : side) found |= c.id.value() == id;
    if (!found) return false;
  }
  return true;
}

// Dense ids for the build side's values of one 64-bit integer key (integers, dates,
// timestamps): open addressing over the keys themselves, so a probe hashes and compares one
// integer instead of encoding a key and comparing bytes (the common join, on ids). A slot holds
// the key beside its id, so the one cache line a probe prefetches answers it.
class IntKeyTable {
 public:
  void Reserve(size_t keys) {
    size_t capacity = 64;
    while (capacity < keys * 2) capacity *= 2;
    mask_ = capacity - 1;
    slots_.assign(capacity, Slot{});
  }
  // The id of `key`, the next id when it is new.
  int64_t FindOrInsert(int64_t key) {
    size_t s = Hash(key) & mask_;
    while (slots_[s].id >= 0 && slots_[s].key != key) s = (s + 1) & mask_;
    if (slots_[s].id < 0) slots_[s] = Slot{key, size_++};
    return slots_[s].id;
  }
  // Where the search for `key` starts (the table must not be empty).
  size_t SlotOf(int64_t key) const { return Hash(key) & mask_; }
  void PrefetchSlot(size_t slot) const { __builtin_prefetch(&slots_[slot]); }
  // The id of `key` searching from its SlotOf, or -1.
  int64_t FindFrom(size_t s, int64_t key) const {
    for (;; s = (s + 1) & mask_) {
      if (slots_[s].id < 0) return -1;
      if (slots_[s].key == key) return slots_[s].id;
    }
  }
  bool empty() const { return slots_.empty(); }
  int64_t size() const { return size_; }
  int64_t Bytes() const { return static_cast<int64_t>(slots_.capacity() * sizeof(Slot)); }

 private:
  struct Slot {
    int64_t key = 0;
    int64_t id = -1;  // -1: empty.
  };
  static size_t Hash(int64_t key) { return HashInt64(key); }

  uint64_t mask_ = 0;
  std::vector<Slot> slots_;
  int64_t size_ = 0;
};

// A blocked Bloom filter of the build side's key hashes, asked before a large hash table: a
// probe key that cannot match (most of them, in a selective join) is turned away by one word
// that stays in cache, instead of a cache miss in the table. Three bits of one 64-bit word
// per key, eight bits per key: about 5% of absent keys get through.
class KeyBloomFilter {
 public:
  void Reserve(size_t keys) {
    size_t words = 64;
    while (words * 64 < keys * 8) words *= 2;
    words_.assign(words, 0);
    mask_ = words - 1;
  }
  void Add(uint64_t hash) { words_[Word(hash)] |= Bits(hash); }
  bool MayContain(uint64_t hash) const {
    uint64_t bits = Bits(hash);
    return (words_[Word(hash)] & bits) == bits;
  }
  bool empty() const { return words_.empty(); }
  int64_t Bytes() const { return static_cast<int64_t>(words_.capacity() * 8); }

 private:
  // The word from the hash's high bits (a table's slot comes from its low bits), the three bits
  // from the bits below them.
  size_t Word(uint64_t hash) const { return static_cast<size_t>(hash >> 40) & mask_; }
  static uint64_t Bits(uint64_t hash) {
    return (uint64_t{1} << ((hash >> 22) & 63)) | (uint64_t{1} << ((hash >> 28) & 63)) | (uint64_t{1} << ((hash >> 34) & 63));
  }

  std::vector<uint64_t> words_;
  uint64_t mask_ = 0;
};

// The filter pays off only where the table does not fit in cache.
constexpr size_t kBloomFilterMinKeys = size_t{1} << 16;

// A 64-bit integer key's hash for the Bloom filter: mixed again, so its high bits do not
// simply repeat the table's slot.
inline uint64_t IntKeyBloomHash(int64_t key) {
  uint64_t h = static_cast<uint64_t>(HashInt64(key)) * 0xc2b2ae3d27d4eb4fULL;
  return h ^ (h >> 29);
}

// The build rows of each key id, contiguous: rows[offsets[id] .. offsets[id + 1]), in build
// order. Made once from each row's key id (-1: a NULL key, which matches nothing), so a probe
// reads a key's rows from one run instead of chasing a chain through the build rows.
struct RowsByKey {
  std::vector<uint32_t> offsets;  // keys + 1
  std::vector<uint32_t> rows;

  void Build(const std::vector<int64_t>& key_of_row, size_t keys) {
    offsets.assign(keys + 1, 0);
    for (int64_t id : key_of_row) {
      if (id >= 0) ++offsets[static_cast<size_t>(id) + 1];
    }
    for (size_t k = 0; k < keys; ++k) offsets[k + 1] += offsets[k];
    rows.resize(offsets[keys]);
    std::vector<uint32_t> fill(offsets.begin(), offsets.end() - 1);
    for (size_t r = 0; r < key_of_row.size(); ++r) {
      if (key_of_row[r] >= 0) rows[fill[static_cast<size_t>(key_of_row[r])]++] = static_cast<uint32_t>(r);
    }
  }
  int64_t Bytes() const { return static_cast<int64_t>((offsets.capacity() + rows.capacity()) * 4); }
};

class HashJoinProbe final : public StreamOperator {
 public:
  HashJoinProbe(MemoryTracker& tracker) : reservation_(tracker, "HashJoin") {}

  Status Build(const LogicalJoin& join, Materialized build, const std::map<ColumnId, Value>* outer,
               QueryContext& context) {
    type_ = join.join_type;
    const auto& left = join.children[0]->output;
    const auto& right = join.children[1]->output;
    for (const auto& c : left) left_types_.push_back(c.type);
    for (const auto& c : right) right_types_.push_back(c.type);
    std::vector<OutputColumn> combined = left;
    combined.insert(combined.end(), right.begin(), right.end());
    for (const auto& c : join.output) {
      for (size_t i = 0; i < combined.size(); ++i) {
        if (combined[i].id == c.id) {
          output_positions_.push_back(i);
          break;
        }
      }
    }
    ColumnLayout left_layout = ColumnLayout::Of(left, outer);
    ColumnLayout right_layout = ColumnLayout::Of(right, outer);
    JoinKeys keys = SplitJoinCondition(join);
    std::vector<ExprNodePtr> build_keys;
    for (size_t k = 0; k < keys.probe.size(); ++k) {
      FLOE_ASSIGN_OR_RETURN(auto probe, CompileExpression(*keys.probe[k], left_layout));
      FLOE_ASSIGN_OR_RETURN(auto built, CompileExpression(*keys.build[k], right_layout));
      probe_keys_.push_back(std::move(probe));
      build_keys.push_back(std::move(built));
    }
    if (!keys.residual.empty()) {
      residual_expr_ = CombineConjunction(std::move(keys.residual));
      FLOE_ASSIGN_OR_RETURN(residual_, CompileExpression(*residual_expr_, ColumnLayout::Of(combined, outer)));
    }
    // The build rows as one chunk.
    build_.rows = build.rows();
    for (size_t i = 0; i < right_types_.size(); ++i) {
      build_.columns.push_back(build.chunks.size() == 1 ? build.chunks[0].columns[i] : Concatenate(build.chunks, i, right_types_[i]));
    }
    build.chunks.clear();
    auto rows = static_cast<size_t>(build_.rows);
    if (rows > std::numeric_limits<uint32_t>::max()) {
      return NotImplemented("a hash join's build side of {} rows (at most 2^32 - 1)", rows);
    }
    bool integers = !probe_keys_.empty() && probe_keys_.size() <= 2;
    for (size_t k = 0; k < probe_keys_.size(); ++k) {
      integers &= PhysicalTypeOf(probe_keys_[k]->type()) == PhysicalType::kInt64 &&
                  PhysicalTypeOf(build_keys[k]->type()) == PhysicalType::kInt64;
    }
    std::vector<VectorPtr> build_int_keys;
    if (integers && build_.rows > 0) {
      for (const auto& k : build_keys) {
        FLOE_ASSIGN_OR_RETURN(VectorPtr v, k->Evaluate(build_, context));
        build_int_keys.push_back(std::move(v));
      }
      int_key_ = build_int_keys.size() == 1 || FitsPackedKey(build_int_keys, build_.rows);
    } else {
      int_key_ = integers && probe_keys_.size() == 1;
    }
    if (int_key_ && build_.rows > 0) {
      std::vector<int64_t> key_of_row(rows, -1);
      std::vector<int64_t> packed(rows);
      int_table_.Reserve(rows);
      for (size_t r = 0; r < rows; ++r) {
        if (IntKey(build_int_keys, static_cast<int64_t>(r), packed[r])) key_of_row[r] = int_table_.FindOrInsert(packed[r]);
      }
      auto keys = static_cast<size_t>(int_table_.size());
      rows_by_key_.Build(key_of_row, keys);
      unique_keys_ = rows_by_key_.rows.size() == keys;
      if (keys >= kBloomFilterMinKeys) {
        bloom_.Reserve(keys);
        for (size_t r = 0; r < rows; ++r) {
          if (key_of_row[r] >= 0) bloom_.Add(IntKeyBloomHash(packed[r]));
        }
      }
    } else if (!probe_keys_.empty() && build_.rows > 0) {
      FLOE_ASSIGN_OR_RETURN(EvaluatedKeys keys, EvaluateKeys(build_keys, build_, context));
      KeyEncoder encoder;
      encoder.Encode(keys.columns, build_.rows);
      // Keys may repeat, so only a bounded reservation: beyond it the table grows as it fills.
      table_.Reserve(std::min<size_t>(rows, size_t{1} << 22));
      std::vector<int64_t> key_of_row(rows, -1);
      for (size_t r = 0; r < rows; ++r) {
        auto i = static_cast<int64_t>(r);
        if (r + 16 < rows) table_.Prefetch(encoder.hash(i + 16));
        if (encoder.has_null(i)) continue;
        bool inserted;
        key_of_row[r] = table_.FindOrInsert(encoder.key(i), encoder.hash(i), inserted);
      }
      rows_by_key_.Build(key_of_row, table_.size());
      if (table_.size() >= kBloomFilterMinKeys) {
        bloom_.Reserve(table_.size());
        for (uint32_t id = 0; id < table_.size(); ++id) bloom_.Add(table_.HashAt(id));
      }
    }
    matched_ = std::make_unique<std::atomic<uint8_t>[]>(rows + 1);
    for (size_t r = 0; r < rows; ++r) matched_[r].store(0, std::memory_order_relaxed);
    return reservation_.Resize(build_.Bytes() + table_.Bytes() + int_table_.Bytes() + rows_by_key_.Bytes() + bloom_.Bytes() +
                               static_cast<int64_t>(rows));
  }

  Status Process(DataChunk&& chunk, QueryContext& context, const ChunkCallback& next) const override {
    int64_t n = chunk.rows;
    std::vector<uint8_t> probe_matched(static_cast<size_t>(n), 0);
    std::vector<uint32_t> pl, pr;
    auto flush = [&]() -> Status {
      if (pl.empty()) return OkStatus();
      DataChunk pairs;
      pairs.rows = static_cast<int64_t>(pl.size());
      if (residual_) {
        // The residual may read any column of the pair.
        for (const auto& c : chunk.columns) pairs.columns.push_back(Gather(*c, pl.data(), pairs.rows));
        for (const auto& c : build_.columns) pairs.columns.push_back(Gather(*c, pr.data(), pairs.rows));
        FLOE_ASSIGN_OR_RETURN(auto keep, SelectTrueRows(*residual_, pairs, context));
        if (keep.size() != pl.size()) {
          pairs = GatherChunk(pairs, keep);
          std::vector<uint32_t> kl, kr;
          for (uint32_t k : keep) {
            kl.push_back(pl[k]);
            kr.push_back(pr[k]);
          }
          pl = std::move(kl);
          pr = std::move(kr);
        }
      }
      for (uint32_t p : pl) probe_matched[p] = 1;
      if (MarksBuildRows()) {
        for (uint32_t b : pr) matched_[b].store(1, std::memory_order_relaxed);
      }
      if (!EmitsPairs() || pl.empty()) {
        pl.clear();
        pr.clear();
        return OkStatus();
      }
      DataChunk out;
      if (residual_) {
        out = Select(std::move(pairs));
      } else {
        // Only the columns the join outputs: a key column used only to match is not copied.
        out.rows = static_cast<int64_t>(pl.size());
        size_t probe_columns = chunk.columns.size();
        for (size_t p : output_positions_) {
          out.columns.push_back(p < probe_columns ? Gather(*chunk.columns[p], pl.data(), out.rows)
                                                  : Gather(*build_.columns[p - probe_columns], pr.data(), out.rows));
        }
      }
      pl.clear();
      pr.clear();
      return next(std::move(out));
    };
    // Pairs probe row i with every build row of key `id`.
    auto emit_key_rows = [&](int64_t i, int64_t id) -> Status {
      const uint32_t* at = rows_by_key_.rows.data() + rows_by_key_.offsets[static_cast<size_t>(id)];
      const uint32_t* end = rows_by_key_.rows.data() + rows_by_key_.offsets[static_cast<size_t>(id) + 1];
      for (; at != end; ++at) {
        pl.push_back(static_cast<uint32_t>(i));
        pr.push_back(*at);
        if (static_cast<int64_t>(pl.size()) >= kChunkRows) FLOE_RETURN_IF_ERROR(flush());
      }
      return OkStatus();
    };
    if (int_key_) {
      std::vector<VectorPtr> keys;
      for (const auto& k : probe_keys_) {
        FLOE_ASSIGN_OR_RETURN(VectorPtr v, k->Evaluate(chunk, context));
        keys.push_back(std::move(v));
      }
      // First every row's key, then the lookups (prefetched ahead), then the pairs: each loop
      // stays simple enough to run at memory speed.
      std::vector<int64_t> values(static_cast<size_t>(n));
      std::vector<uint8_t> present(static_cast<size_t>(n));
      for (int64_t i = 0; i < n; ++i) present[static_cast<size_t>(i)] = IntKey(keys, i, values[static_cast<size_t>(i)]);
      std::vector<int64_t> ids(static_cast<size_t>(n), -1);
      if (!int_table_.empty()) {
        // Every slot a row will read is asked for before the first is read: the table is often
        // far bigger than the cache, and the misses then overlap instead of queueing. The Bloom
        // filter turns most absent keys away first, and a run of equal keys (a probe side sorted
        // or clustered by it) looks its key up once.
        std::vector<size_t> slots(static_cast<size_t>(n));
        for (int64_t i = 0; i < n; ++i) {
          auto at = static_cast<size_t>(i);
          if (!present[at]) continue;
          if (i > 0 && present[at - 1] && values[at - 1] == values[at]) continue;
          if (!bloom_.empty() && !bloom_.MayContain(IntKeyBloomHash(values[at]))) {
            present[at] = 0;
            continue;
          }
          slots[at] = int_table_.SlotOf(values[at]);
          int_table_.PrefetchSlot(slots[at]);
        }
        int64_t last_key = 0, last_id = -1;
        bool have_last = false;
        for (int64_t i = 0; i < n; ++i) {
          auto at = static_cast<size_t>(i);
          if (!present[at]) {
            have_last = false;
            continue;
          }
          if (!have_last || values[at] != last_key) {
            last_key = values[at];
            last_id = int_table_.FindFrom(slots[at], last_key);
            have_last = true;
          }
          ids[at] = last_id;
        }
      }
      if (unique_keys_ && !rows_by_key_.rows.empty()) {
        // One build row per key: the pairs are written without a branch per row.
        const uint32_t* row_of_key = rows_by_key_.rows.data();
        for (int64_t start = 0; start < n; start += kChunkRows) {
          int64_t end = std::min(n, start + kChunkRows);
          if (static_cast<int64_t>(pl.size()) + (end - start) > kChunkRows) FLOE_RETURN_IF_ERROR(flush());
          size_t k = pl.size();
          pl.resize(k + static_cast<size_t>(end - start));
          pr.resize(pl.size());
          for (int64_t i = start; i < end; ++i) {
            int64_t id = ids[static_cast<size_t>(i)];
            pl[k] = static_cast<uint32_t>(i);
            pr[k] = row_of_key[id < 0 ? 0 : id];
            k += id >= 0;
          }
          pl.resize(k);
          pr.resize(k);
        }
      } else {
        for (int64_t i = 0; i < n; ++i) {
          if (ids[static_cast<size_t>(i)] >= 0) FLOE_RETURN_IF_ERROR(emit_key_rows(i, ids[static_cast<size_t>(i)]));
        }
      }
    } else if (!probe_keys_.empty()) {
      FLOE_ASSIGN_OR_RETURN(EvaluatedKeys keys, EvaluateKeys(probe_keys_, chunk, context));
      KeyEncoder encoder;
      encoder.Encode(keys.columns, n);
      constexpr int64_t kPrefetchDistance = 16;
      for (int64_t i = 0; i < n; ++i) {
        if (i + kPrefetchDistance < n) table_.Prefetch(encoder.hash(i + kPrefetchDistance));
        if (encoder.has_null(i) || rows_by_key_.offsets.empty()) continue;
        if (!bloom_.empty() && !bloom_.MayContain(encoder.hash(i))) continue;
        int64_t id = table_.Find(encoder.key(i), encoder.hash(i));
        if (id >= 0) FLOE_RETURN_IF_ERROR(emit_key_rows(i, id));
      }
    } else {
      for (int64_t i = 0; i < n; ++i) {
        for (int64_t r = 0; r < build_.rows; ++r) {
          pl.push_back(static_cast<uint32_t>(i));
          pr.push_back(static_cast<uint32_t>(r));
          if (static_cast<int64_t>(pl.size()) >= kChunkRows) FLOE_RETURN_IF_ERROR(flush());
        }
      }
    }
    FLOE_RETURN_IF_ERROR(flush());
    if (type_ == LogicalJoinType::kLeft || type_ == LogicalJoinType::kFull || type_ == LogicalJoinType::kSemi ||
        type_ == LogicalJoinType::kAnti) {
      bool want = type_ == LogicalJoinType::kSemi;
      std::vector<uint32_t> rows;
      for (int64_t i = 0; i < n; ++i) {
        if ((probe_matched[static_cast<size_t>(i)] != 0) == want) rows.push_back(static_cast<uint32_t>(i));
      }
      if (rows.empty()) return OkStatus();
      DataChunk out = GatherChunk(chunk, rows);
      if (type_ == LogicalJoinType::kSemi || type_ == LogicalJoinType::kAnti) return next(Select(std::move(out)));
      for (const auto& t : right_types_) out.columns.push_back(ConstantVector(Value::Null(t), out.rows));
      return next(Select(std::move(out)));
    }
    return OkStatus();
  }

  Status Finish(QueryContext&, const ChunkCallback& next) override {
    if (!MarksBuildRows()) return OkStatus();
    // Right semi joins emit the matched build rows; the others the unmatched ones.
    uint8_t wanted = type_ == LogicalJoinType::kRightSemi ? 1 : 0;
    std::vector<uint32_t> rows;
    for (int64_t r = 0; r < build_.rows; ++r) {
      if (matched_[static_cast<size_t>(r)].load() == wanted) rows.push_back(static_cast<uint32_t>(r));
    }
    for (size_t at = 0; at < rows.size(); at += static_cast<size_t>(kChunkRows)) {
      std::vector<uint32_t> part(rows.begin() + static_cast<std::ptrdiff_t>(at),
                                 rows.begin() + static_cast<std::ptrdiff_t>(std::min(rows.size(), at + static_cast<size_t>(kChunkRows))));
      DataChunk built = GatherChunk(build_, part);
      DataChunk out;
      out.rows = built.rows;
      for (const auto& t : left_types_) out.columns.push_back(ConstantVector(Value::Null(t), out.rows));
      for (auto& c : built.columns) out.columns.push_back(std::move(c));
      FLOE_RETURN_IF_ERROR(next(Select(std::move(out))));
    }
    return OkStatus();
  }

 private:
  bool MarksBuildRows() const {
    return type_ == LogicalJoinType::kRight || type_ == LogicalJoinType::kFull || type_ == LogicalJoinType::kRightSemi ||
           type_ == LogicalJoinType::kRightAnti;
  }
  bool EmitsPairs() const {
    return type_ != LogicalJoinType::kSemi && type_ != LogicalJoinType::kAnti && type_ != LogicalJoinType::kRightSemi &&
           type_ != LogicalJoinType::kRightAnti;
  }

  // Whether two integer keys' build values each span under 2^32, so a pair packs into one
  // integer (records the smallest values for IntKey).
  bool FitsPackedKey(const std::vector<VectorPtr>& keys, int64_t rows) {
    for (size_t k = 0; k < 2; ++k) {
      const int64_t* v = keys[k]->Data<int64_t>();
      int64_t lo = std::numeric_limits<int64_t>::max(), hi = std::numeric_limits<int64_t>::min();
      for (int64_t r = 0; r < rows; ++r) {
        if (!keys[k]->IsValid(r)) continue;
        lo = std::min(lo, v[r]);
        hi = std::max(hi, v[r]);
      }
      if (lo > hi) lo = hi = 0;  // No value at all.
      if (static_cast<uint64_t>(hi) - static_cast<uint64_t>(lo) > 0xffffffffULL) return false;
      packed_base_[k] = lo;
    }
    return true;
  }

  // Row i's key as one integer: the key itself, or two keys as their offsets from the build
  // side's smallest values, 32 bits each. False for a NULL, or a pair outside the build side's
  // ranges (which matches nothing).
  bool IntKey(const std::vector<VectorPtr>& keys, int64_t i, int64_t& out) const {
    if (!keys[0]->IsValid(i)) return false;
    int64_t a = keys[0]->Data<int64_t>()[i];
    if (keys.size() == 1) {
      out = a;
      return true;
    }
    if (!keys[1]->IsValid(i)) return false;
    uint64_t da = static_cast<uint64_t>(a) - static_cast<uint64_t>(packed_base_[0]);
    uint64_t db = static_cast<uint64_t>(keys[1]->Data<int64_t>()[i]) - static_cast<uint64_t>(packed_base_[1]);
    if (da > 0xffffffffULL || db > 0xffffffffULL) return false;
    out = static_cast<int64_t>(da << 32 | db);
    return true;
  }

  DataChunk Select(DataChunk combined) const {
    DataChunk out;
    out.rows = combined.rows;
    for (size_t p : output_positions_) {
      if (p < combined.columns.size()) out.columns.push_back(combined.columns[p]);
    }
    return out;
  }

  LogicalJoinType type_ = LogicalJoinType::kInner;
  std::vector<SqlType> left_types_, right_types_;
  std::vector<size_t> output_positions_;
  std::vector<ExprNodePtr> probe_keys_;
  BoundExprPtr residual_expr_;
  ExprNodePtr residual_;
  DataChunk build_;
  KeyTable table_;
  // Keys of 64-bit integers (one, or two packed by IntKey): int_table_ instead of table_.
  bool int_key_ = false;
  int64_t packed_base_[2] = {0, 0};  // The build side's smallest value of each of two keys.
  bool unique_keys_ = false;         // Every build key is on one row (int_key_ only).
  IntKeyTable int_table_;
  RowsByKey rows_by_key_;
  KeyBloomFilter bloom_;  // Empty unless the build side has kBloomFilterMinKeys keys or more.
  std::unique_ptr<std::atomic<uint8_t>[]> matched_;
  MemoryReservation reservation_;
};

}  // namespace

JoinKeys SplitJoinCondition(const LogicalJoin& join) {
  JoinKeys out;
  std::vector<BoundExprPtr> terms;
  if (join.condition) SplitConjunction(join.condition->Clone(), terms);
  const auto& left = join.children[0]->output;
  const auto& right = join.children[1]->output;
  for (auto& term : terms) {
    if (term->kind == BoundKind::kCall && term->As<BoundCall>().name == "eq" && term->args.size() == 2 &&
        term->args[0]->type == term->args[1]->type && IsExecutable(term->args[0]->type)) {
      auto a = ColumnsOf(*term->args[0]), b = ColumnsOf(*term->args[1]);
      int side = Within(a, left) && Within(b, right) ? 0 : Within(b, left) && Within(a, right) ? 1 : -1;
      if (side >= 0) {
        out.probe.push_back(std::move(term->args[side]));
        out.build.push_back(std::move(term->args[1 - side]));
        continue;
      }
    }
    out.residual.push_back(std::move(term));
  }
  return out;
}

Result<std::unique_ptr<StreamOperator>> MakeHashJoinProbe(const LogicalJoin& join, Materialized build,
                                                          const std::map<ColumnId, Value>* outer,
                                                          QueryContext& context) {
  auto probe = std::make_unique<HashJoinProbe>(context.memory());
  FLOE_RETURN_IF_ERROR(probe->Build(join, std::move(build), outer, context));
  return std::unique_ptr<StreamOperator>(std::move(probe));
}

}  // namespace floe::sql

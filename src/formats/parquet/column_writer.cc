#include "formats/parquet/column_writer.h"

#include <xxhash.h>

#include <algorithm>
#include <cmath>
#include <type_traits>
#include <unordered_set>

#include "formats/parquet/bit_packing.h"
#include "formats/parquet/bloom_filter.h"
#include "formats/parquet/compression.h"
#include "formats/parquet/delta_encoding.h"
#include "formats/parquet/rle_encoding.h"

namespace floe::parquet {
namespace {

using formats::ColumnVector;
using formats::TypeId;

inline uint64_t Mix(uint64_t x) {
  x ^= x >> 33;
  x *= 0xff51afd7ed558ccdULL;
  x ^= x >> 33;
  x *= 0xc4ceb9fe1a85ec53ULL;
  x ^= x >> 33;
  return x;
}

template <typename T>
uint64_t Bits(T v) {
  if constexpr (sizeof(T) == 4) {
    uint32_t b;
    std::memcpy(&b, &v, 4);
    return b;
  } else if constexpr (sizeof(T) == 8) {
    uint64_t b;
    std::memcpy(&b, &v, 8);
    return b;
  } else {
    return static_cast<uint64_t>(v);
  }
}

// Dictionary of fixed-width values, keyed by bit pattern (so NaNs and signed zeros are exact).
// Each slot holds the value's bits beside its index, so a lookup touches one cache line, and
// InsertMany prefetches the slots a few values ahead: high-cardinality columns (prices, ids)
// otherwise stall on a cache miss per value.
template <typename T>
class NumericDictionary {
 public:
  NumericDictionary() { Rehash(1024); }
  // Hashes a run of values and prefetches their slots before inserting them, so that the cache
  // misses of a large dictionary overlap instead of stalling one value at a time.
  void InsertMany(const T* values, int64_t n, uint32_t* indices) {
    constexpr int64_t kRun = 64;
    uint64_t hashes[kRun];
    for (int64_t start = 0; start < n; start += kRun) {
      const int64_t run = std::min(kRun, n - start);
      for (int64_t i = 0; i < run; ++i) {
        hashes[i] = Mix(Bits(values[start + i]));
        __builtin_prefetch(&slots_[hashes[i] & mask_]);
      }
      for (int64_t i = 0; i < run; ++i) {
        const T v = values[start + i];
        indices[start + i] = static_cast<uint32_t>(InsertAt(Bits(v), v, hashes[i]));
      }
    }
  }
  size_t size() const { return values_.size(); }
  size_t bytes() const { return values_.size() * sizeof(T); }
  const std::vector<T>& values() const { return values_; }
  // Frees the hash slots once no more values will be inserted (the column fell back to PLAIN).
  void ReleaseIndex() { std::vector<Slot>().swap(slots_); }

 private:
  struct Slot {
    uint64_t bits = 0;
    int32_t index = -1;  // Negative: empty.
  };
  int32_t InsertAt(uint64_t bits, T v, uint64_t hash) {
    size_t i = hash & mask_;
    while (true) {
      Slot& slot = slots_[i];
      if (slot.index < 0) {
        slot = {bits, static_cast<int32_t>(values_.size())};
        values_.push_back(v);
        if (values_.size() * 2 > slots_.size()) Rehash(slots_.size() * 2);
        return static_cast<int32_t>(values_.size() - 1);
      }
      if (slot.bits == bits) return slot.index;
      i = (i + 1) & mask_;
    }
  }
  void Rehash(size_t n) {
    slots_.assign(n, Slot{});
    mask_ = n - 1;
    for (size_t k = 0; k < values_.size(); ++k) {
      const uint64_t bits = Bits(values_[k]);
      size_t i = Mix(bits) & mask_;
      while (slots_[i].index >= 0) i = (i + 1) & mask_;
      slots_[i] = {bits, static_cast<int32_t>(k)};
    }
  }
  std::vector<T> values_;
  std::vector<Slot> slots_;
  size_t mask_ = 0;
};

// Dictionary of byte strings; slots keep each entry's hash so that probing rarely compares bytes.
class ByteDictionary {
 public:
  ByteDictionary() { Rehash(1024); }
  int32_t Insert(std::string_view v) {
    const uint64_t h = XXH3_64bits(v.data(), v.size());
    size_t i = h & mask_;
    while (true) {
      Slot& slot = slots_[i];
      if (slot.index < 0) {
        slot = {h, static_cast<int32_t>(ends_.size())};
        data_.Append(v.data(), v.size());
        ends_.push_back(static_cast<uint32_t>(data_.size()));
        if (ends_.size() * 2 > slots_.size()) Rehash(slots_.size() * 2);
        return static_cast<int32_t>(ends_.size() - 1);
      }
      if (slot.hash == h && Get(static_cast<size_t>(slot.index)) == v) return slot.index;
      i = (i + 1) & mask_;
    }
  }
  size_t size() const { return ends_.size(); }
  size_t data_bytes() const { return data_.size(); }
  // Frees the hash slots once no more values will be inserted (the column fell back to PLAIN).
  void ReleaseIndex() { std::vector<Slot>().swap(slots_); }
  std::string_view Get(size_t k) const {
    uint32_t b = k == 0 ? 0 : ends_[k - 1];
    return {reinterpret_cast<const char*>(data_.data()) + b, ends_[k] - b};
  }

 private:
  struct Slot {
    uint64_t hash = 0;
    int32_t index = -1;  // Negative: empty.
  };
  void Rehash(size_t n) {
    std::vector<Slot> old = std::exchange(slots_, std::vector<Slot>(n));
    mask_ = n - 1;
    for (const Slot& s : old) {
      if (s.index < 0) continue;
      size_t i = s.hash & mask_;
      while (slots_[i].index >= 0) i = (i + 1) & mask_;
      slots_[i] = s;
    }
  }
  std::vector<uint32_t> ends_;
  formats::Buffer data_;
  std::vector<Slot> slots_;
  size_t mask_ = 0;
};

// The value type a physical type is written from.
template <PhysicalType P>
struct Physical;
template <>
struct Physical<PhysicalType::kBoolean> { using T = uint8_t; };
template <>
struct Physical<PhysicalType::kInt32> { using T = int32_t; };
template <>
struct Physical<PhysicalType::kInt64> { using T = int64_t; };
template <>
struct Physical<PhysicalType::kFloat> { using T = float; };
template <>
struct Physical<PhysicalType::kDouble> { using T = double; };
template <>
struct Physical<PhysicalType::kByteArray> { using T = std::string_view; };
template <>
struct Physical<PhysicalType::kFixedLenByteArray> { using T = std::string_view; };

void AppendLevels(const std::vector<int16_t>& levels, int16_t max, bool length_prefix, std::string* out) {
  size_t at = out->size();
  if (length_prefix) out->append(4, '\0');
  RleEncode(levels.data(), static_cast<int64_t>(levels.size()), bits::BitWidth(static_cast<uint64_t>(max)), out);
  if (length_prefix) {
    auto n = static_cast<uint32_t>(out->size() - at - 4);
    std::memcpy(out->data() + at, &n, 4);
  }
}

template <PhysicalType P>
class TypedColumnWriter final : public ColumnWriter {
  using T = typename Physical<P>::T;
  static constexpr bool kBytes = std::is_same_v<T, std::string_view>;
  static constexpr bool kFloating = std::is_floating_point_v<T>;
  static constexpr bool kBool = P == PhysicalType::kBoolean;

 public:
  TypedColumnWriter(const LeafColumn& leaf, const WriterOptions& options, bool bloom, PageBuffers* buffers)
      : leaf_(leaf), options_(options), compressor_(options.codec, options.compression_level), bloom_(bloom), buffers_(*buffers) {
    const TypeId id = leaf.node->type.id;
    use_dictionary_ = options.dictionary && !kBool;
    use_delta_ = options.delta_integers && (P == PhysicalType::kInt32 || P == PhysicalType::kInt64);
    if (use_delta_) use_dictionary_ = false;
    byte_order_ = id == TypeId::kDecimal ? ByteOrder::kSignedBigEndian : ByteOrder::kUnsigned;
    page_bytes_.order = chunk_bytes_.order = byte_order_;
    width_ = leaf.type_length;
  }

  Status Write(const ShreddedLevels& levels) override {
    // Levels.
    if (leaf_.max_def > 0) page_def_.insert(page_def_.end(), levels.def.begin(), levels.def.end());
    if (leaf_.max_rep > 0) {
      page_rep_.insert(page_rep_.end(), levels.rep.begin(), levels.rep.end());
      for (int16_t r : levels.rep) page_rows_ += r == 0;
    } else {
      page_rows_ += levels.num_levels;
    }
    page_levels_ += levels.num_levels;
    int64_t n = levels.dense ? levels.num_levels : static_cast<int64_t>(levels.positions.size());
    page_nulls_ += levels.num_levels - n;
    // Values, as a dense array of T.
    const T* values = Gather(levels, n);
    if (values == nullptr && n > 0) return Internal("column {}: unsupported vector type", leaf_.path.back());
    // Dictionary-encoded strings get their page's min/max from the entries the page used
    // (FoldDictionaryStats), comparing each distinct value once instead of every value.
    if (!(kBytes && use_dictionary_)) UpdateStats(values, n);
    if (bloom_) {
      for (int64_t i = 0; i < n; ++i) bloom_hashes_.insert(HashValue(values[i]));
    }
    page_values_ += n;
    FLOE_RETURN_IF_ERROR(EncodeValues(values, n));
    if (PageBytes() >= options_.page_bytes || page_levels_ >= options_.page_values) FLOE_RETURN_IF_ERROR(FlushPage());
    return OkStatus();
  }

  int64_t BufferedBytes() const override {
    return pages_bytes_ + PageBytes() + (use_dictionary_ ? DictBytes() : 0);
  }

  Result<ChunkResult> Finish() override {
    if (page_levels_ > 0 || pages_.empty()) FLOE_RETURN_IF_ERROR(FlushPage());
    ChunkResult result;
    ColumnMetaData& meta = result.meta;
    meta.type = P;
    meta.path_in_schema = leaf_.path;
    meta.codec = options_.codec;
    meta.num_values = total_levels_;
    int64_t dict_size = 0;
    if (dict_used_) {
      std::string plain;
      int32_t count = 0;
      if constexpr (kBytes) {
        count = static_cast<int32_t>(byte_dict_.size());
        for (size_t k = 0; k < byte_dict_.size(); ++k) {
          if (P == PhysicalType::kByteArray) {
            AppendPlain(byte_dict_.Get(k), &plain);
          } else {
            plain.append(byte_dict_.Get(k));
          }
        }
      } else if constexpr (!kBool) {
        count = static_cast<int32_t>(num_dict_.size());
        plain.append(reinterpret_cast<const char*>(num_dict_.values().data()), num_dict_.bytes());
      }
      std::string compressed;
      FLOE_RETURN_IF_ERROR(compressor_.Compress(plain, &compressed));
      PageHeader header;
      header.type = PageType::kDictionaryPage;
      header.uncompressed_page_size = static_cast<int32_t>(plain.size());
      header.compressed_page_size = static_cast<int32_t>(compressed.size());
      header.dictionary_page_header.emplace();
      header.dictionary_page_header->num_values = count;
      header.dictionary_page_header->encoding = Encoding::kPlain;
      std::string page;
      EncodePageHeader(header, &page);
      uncompressed_total_ += static_cast<int64_t>(page.size() + plain.size());
      page += compressed;
      dict_size = static_cast<int64_t>(page.size());
      result.pages.push_back(std::move(page));
      meta.dictionary_page_offset = 0;
      encoding_stats_.push_back({PageType::kDictionaryPage, Encoding::kPlain, 1});
    }
    meta.data_page_offset = dict_size;
    for (std::string& page : pages_) result.pages.push_back(std::move(page));
    pages_.clear();
    meta.total_compressed_size = dict_size + pages_bytes_;
    meta.total_uncompressed_size = uncompressed_total_;
    // Encodings used: levels, then values.
    meta.encodings.push_back(Encoding::kRle);
    if (dict_used_) {
      meta.encodings.push_back(Encoding::kPlain);
      meta.encodings.push_back(Encoding::kRleDictionary);
    }
    if (plain_pages_ > 0) meta.encodings.push_back(value_encoding_plain_);
    std::sort(meta.encodings.begin(), meta.encodings.end(),
              [](Encoding a, Encoding b) { return static_cast<int>(a) < static_cast<int>(b); });
    meta.encodings.erase(std::unique(meta.encodings.begin(), meta.encodings.end()), meta.encodings.end());
    meta.encoding_stats = encoding_stats_;
    result.stats = ChunkStats();
    Statistics s;
    s.null_count = result.stats.null_count;
    if (result.stats.has_min_max) {
      s.min_value = result.stats.min;
      s.max_value = result.stats.max;
    }
    meta.statistics = s;
    for (PageLocation& loc : offset_index_.page_locations) loc.offset += dict_size;
    result.offset_index = std::move(offset_index_);
    result.column_index = std::move(column_index_);
    result.has_column_index = options_.page_index;
    if (bloom_) result.bloom_filter = BuildBloomFilter(bloom_hashes_, options_.bloom_filter_fpp);
    return result;
  }

 private:
  // Values of the slice as a dense T array (borrowed from the batch or converted into scratch).
  const T* Gather(const ShreddedLevels& levels, int64_t n) {
    const ColumnVector& v = *levels.leaf;
    const TypeId id = v.type().id;
    if constexpr (kBytes) {
      views_.resize(static_cast<size_t>(n));
      if (id == TypeId::kString || id == TypeId::kBinary) {
        const char* base = reinterpret_cast<const char*>(v.values.data());
        const int32_t* off = v.offsets.data();
        for (int64_t i = 0; i < n; ++i) {
          int64_t s = levels.dense ? levels.dense_begin + i : levels.positions[static_cast<size_t>(i)];
          views_[static_cast<size_t>(i)] = std::string_view(base + off[s], static_cast<size_t>(off[s + 1] - off[s]));
        }
      } else if (id == TypeId::kDecimal) {
        scratch_.Resize(static_cast<size_t>(n * width_));
        const auto* d = v.values.As<__int128>();
        for (int64_t i = 0; i < n; ++i) {
          int64_t s = levels.dense ? levels.dense_begin + i : levels.positions[static_cast<size_t>(i)];
          auto u = static_cast<unsigned __int128>(d[s]);
          uint8_t* out = scratch_.data() + i * width_;
          for (int b = width_ - 1; b >= 0; --b) {
            out[b] = static_cast<uint8_t>(u);
            u >>= 8;
          }
        }
        for (int64_t i = 0; i < n; ++i) {
          views_[static_cast<size_t>(i)] =
              std::string_view(reinterpret_cast<const char*>(scratch_.data()) + i * width_, static_cast<size_t>(width_));
        }
      } else {
        int32_t w = v.type().FixedWidth();
        const char* base = reinterpret_cast<const char*>(v.values.data());
        for (int64_t i = 0; i < n; ++i) {
          int64_t s = levels.dense ? levels.dense_begin + i : levels.positions[static_cast<size_t>(i)];
          views_[static_cast<size_t>(i)] = std::string_view(base + s * w, static_cast<size_t>(w));
        }
      }
      return views_.data();
    } else {
      if (id == TypeId::kDecimal) {
        scratch_.Resize(static_cast<size_t>(n) * sizeof(T));
        const auto* d = v.values.As<__int128>();
        T* out = scratch_.As<T>();
        for (int64_t i = 0; i < n; ++i) {
          int64_t s = levels.dense ? levels.dense_begin + i : levels.positions[static_cast<size_t>(i)];
          out[i] = static_cast<T>(d[s]);
        }
        return out;
      }
      if (v.type().FixedWidth() != static_cast<int32_t>(sizeof(T))) return nullptr;
      const T* src = v.values.As<T>();
      if (levels.dense) return src + levels.dense_begin;
      scratch_.Resize(static_cast<size_t>(n) * sizeof(T));
      T* out = scratch_.As<T>();
      const int64_t* pos = levels.positions.data();
      for (int64_t i = 0; i < n; ++i) out[i] = src[pos[i]];
      return out;
    }
  }

  void UpdateStats(const T* values, int64_t n) {
    if (n == 0) return;
    if constexpr (kBytes) {
      // Track the extremes by view first, copying only the two winners.
      std::string_view lo = values[0], hi = values[0];
      for (int64_t i = 1; i < n; ++i) {
        if (CompareBytes(values[i], lo, byte_order_) < 0) lo = values[i];
        if (CompareBytes(values[i], hi, byte_order_) > 0) hi = values[i];
      }
      page_bytes_.Update(lo);
      page_bytes_.Update(hi);
    } else if constexpr (kFloating) {
      T lo = 0, hi = 0;
      bool has = false;
      int64_t nans = 0;
      for (int64_t i = 0; i < n; ++i) {
        T x = values[i];
        if (std::isnan(x)) {
          ++nans;
          continue;
        }
        if (!has) {
          lo = hi = x;
          has = true;
        } else {
          lo = x < lo ? x : lo;
          hi = x > hi ? x : hi;
        }
      }
      page_nans_ += nans;
      if (has) {
        page_num_.Update(lo);
        page_num_.Update(hi);
      }
    } else {
      T lo = values[0], hi = values[0];
      for (int64_t i = 1; i < n; ++i) {
        lo = values[i] < lo ? values[i] : lo;
        hi = values[i] > hi ? values[i] : hi;
      }
      page_num_.Update(lo);
      page_num_.Update(hi);
    }
  }

  static void AppendPlain(std::string_view v, std::string* out) {
    auto len = static_cast<uint32_t>(v.size());
    out->append(reinterpret_cast<const char*>(&len), 4);
    out->append(v);
  }

  void AppendPlainValue(const T& v) {
    if constexpr (kBytes) {
      if (P == PhysicalType::kByteArray) {
        AppendPlain(v, &plain_);
      } else {
        plain_.append(v);
      }
    } else {
      plain_.append(reinterpret_cast<const char*>(&v), sizeof(T));
    }
  }

  size_t DictBytes() const {
    if constexpr (kBytes) {
      return byte_dict_.data_bytes() + (P == PhysicalType::kByteArray ? 4 * byte_dict_.size() : 0);
    } else if constexpr (!kBool) {
      return num_dict_.bytes();
    }
    return 0;
  }

  Status EncodeValues(const T* values, int64_t n) {
    if constexpr (kBool) {
      bools_.insert(bools_.end(), values, values + n);
      return OkStatus();
    }
    if (use_dictionary_) {
      if (n == 0) return OkStatus();
      dict_used_ = true;
      size_t at = indices_.size();
      indices_.resize(at + static_cast<size_t>(n));
      uint32_t* idx = indices_.data() + at;
      if constexpr (kBytes) {
        for (int64_t i = 0; i < n; ++i) idx[i] = static_cast<uint32_t>(byte_dict_.Insert(values[i]));
        MarkDictionaryEntries(idx, n);
      } else if constexpr (!kBool) {
        num_dict_.InsertMany(values, n, idx);
      }
      if (DictBytes() > static_cast<size_t>(options_.dictionary_bytes) || DictionaryKeepsGrowing(n)) {
        // The dictionary is full (give or take one slice), or not worth filling: close the page
        // and write PLAIN from here on; the pages written so far keep their dictionary encoding.
        FLOE_RETURN_IF_ERROR(FlushPage());
        use_dictionary_ = false;
        // Only the entries are needed now, for the dictionary page.
        if constexpr (kBytes) {
          byte_dict_.ReleaseIndex();
        } else if constexpr (!kBool) {
          num_dict_.ReleaseIndex();
        }
      }
      return OkStatus();
    }
    if (use_delta_) {
      if constexpr (std::is_same_v<T, int32_t> || std::is_same_v<T, int64_t>) {
        plain_.append(reinterpret_cast<const char*>(values), static_cast<size_t>(n) * sizeof(T));
      }
      return OkStatus();
    }
    if constexpr (kBytes) {
      size_t total = 0;
      for (int64_t k = 0; k < n; ++k) total += values[k].size() + 4;
      plain_.reserve(plain_.size() + total);
      for (int64_t k = 0; k < n; ++k) AppendPlainValue(values[k]);
    } else {
      plain_.append(reinterpret_cast<const char*>(values), static_cast<size_t>(n) * sizeof(T));
    }
    return OkStatus();
  }

  // A dictionary that gains an entry for nearly every value (ids, timestamps) would only be
  // filled to its size limit, at a hash-table miss per value, and then dropped. Once
  // kDictionaryProbe values have gone in, the next kDictionaryProbe decide: when over 90% of
  // them were new entries, the chunk falls back to PLAIN straight away. Columns of repeating
  // values (a product id, a price) add far fewer and keep their dictionary.
  static constexpr int64_t kDictionaryProbe = 16384;
  bool DictionaryKeepsGrowing(int64_t n) {
    dict_values_ += n;
    if (probe_from_values_ < 0) {
      if (dict_values_ >= kDictionaryProbe) {
        probe_from_values_ = dict_values_;
        probe_from_size_ = static_cast<int64_t>(DictSize());
      }
      return false;
    }
    const int64_t window = dict_values_ - probe_from_values_;
    if (probe_done_ || window < kDictionaryProbe) return false;
    probe_done_ = true;
    return (static_cast<int64_t>(DictSize()) - probe_from_size_) * 10 > window * 9;
  }

  int64_t PageBytes() const {
    int64_t b = static_cast<int64_t>(plain_.size() + bools_.size() / 8) + static_cast<int64_t>(page_def_.size() + page_rep_.size()) / 4;
    if (!indices_.empty()) b += static_cast<int64_t>(indices_.size()) * (bits::BitWidth(DictSize()) + 1) / 8;
    return b;
  }

  uint64_t DictSize() const {
    if constexpr (kBytes) {
      return byte_dict_.size();
    } else if constexpr (!kBool) {
      return num_dict_.size();
    }
    return 0;
  }

  // Notes which dictionary entries the open page uses, for its byte min/max.
  void MarkDictionaryEntries(const uint32_t* indices, int64_t n) {
    if (dict_marked_.size() < DictSize()) dict_marked_.resize(DictSize());
    for (int64_t i = 0; i < n; ++i) {
      uint8_t& marked = dict_marked_[indices[i]];
      if (!marked) {
        marked = 1;
        page_dict_entries_.push_back(indices[i]);
      }
    }
  }

  void FoldDictionaryStats() {
    if constexpr (kBytes) {
      for (uint32_t k : page_dict_entries_) {
        page_bytes_.Update(byte_dict_.Get(k));
        dict_marked_[k] = 0;
      }
    }
    page_dict_entries_.clear();
  }

  Status FlushPage() {
    FoldDictionaryStats();
    const bool v2 = options_.data_page_v2;
    std::string& levels = buffers_.levels;
    levels.clear();
    size_t rep_len = 0, def_len = 0;
    if (leaf_.max_rep > 0) {
      AppendLevels(page_rep_, leaf_.max_rep, !v2, &levels);
      rep_len = levels.size();
    }
    if (leaf_.max_def > 0) {
      AppendLevels(page_def_, leaf_.max_def, !v2, &levels);
      def_len = levels.size() - rep_len;
    }
    // The encoded values: PLAIN pages use plain_ as it is, the others encode into buffers_.values.
    std::string& encoded = buffers_.values;
    encoded.clear();
    std::string_view values = encoded;
    Encoding encoding = Encoding::kPlain;
    if (use_dictionary_ && dict_used_) {
      encoding = Encoding::kRleDictionary;
      int width = bits::BitWidth(DictSize() > 0 ? DictSize() - 1 : 0);
      encoded.push_back(static_cast<char>(width));
      RleEncode(indices_.data(), static_cast<int64_t>(indices_.size()), width, &encoded);
      values = encoded;
    } else if constexpr (kBool) {
      if (v2) {
        encoding = Encoding::kRle;
        encoded.append(4, '\0');
        RleEncode(bools_.data(), static_cast<int64_t>(bools_.size()), 1, &encoded);
        auto len = static_cast<uint32_t>(encoded.size() - 4);
        std::memcpy(encoded.data(), &len, 4);
      } else {
        size_t full = bools_.size() / 8 * 8;
        for (size_t i = 0; i < full; i += 8) bits::Pack8(bools_.data() + i, 1, &encoded);
        if (full < bools_.size()) {
          uint8_t pad[8] = {};
          std::copy(bools_.begin() + static_cast<long>(full), bools_.end(), pad);
          bits::Pack8(pad, 1, &encoded);
        }
      }
      values = encoded;
    } else if (use_delta_) {
      if constexpr (std::is_same_v<T, int32_t> || std::is_same_v<T, int64_t>) {
        encoding = Encoding::kDeltaBinaryPacked;
        DeltaBinaryPackedEncode(reinterpret_cast<const T*>(plain_.data()), static_cast<int64_t>(plain_.size() / sizeof(T)),
                                &encoded);
      }
      values = encoded;
    } else {
      values = plain_;
    }
    if (encoding != Encoding::kRleDictionary) {
      ++plain_pages_;
      value_encoding_plain_ = encoding;
    }

    PageHeader header;
    std::string& body = buffers_.body;
    body.clear();
    if (!v2) {
      // Levels and values are compressed together; required columns have no levels to join.
      std::string_view raw = values;
      if (!levels.empty()) {
        levels += values;
        raw = levels;
      }
      FLOE_RETURN_IF_ERROR(compressor_.Compress(raw, &body));
      header.type = PageType::kDataPage;
      header.uncompressed_page_size = static_cast<int32_t>(raw.size());
      header.data_page_header.emplace();
      header.data_page_header->num_values = static_cast<int32_t>(page_levels_);
      header.data_page_header->encoding = encoding;
    } else {
      body = levels;
      bool compress = options_.codec != Codec::kUncompressed;
      if (compress) {
        FLOE_RETURN_IF_ERROR(compressor_.Compress(values, &body));
      } else {
        body += values;
      }
      header.type = PageType::kDataPageV2;
      header.uncompressed_page_size = static_cast<int32_t>(levels.size() + values.size());
      auto& h = header.data_page_header_v2.emplace();
      h.num_values = static_cast<int32_t>(page_levels_);
      h.num_nulls = static_cast<int32_t>(page_nulls_);
      h.num_rows = static_cast<int32_t>(page_rows_);
      h.encoding = encoding;
      h.definition_levels_byte_length = static_cast<int32_t>(def_len);
      h.repetition_levels_byte_length = static_cast<int32_t>(rep_len);
      h.is_compressed = compress;
    }
    header.compressed_page_size = static_cast<int32_t>(body.size());
    // Each page is kept as its own string (header, then body), sized exactly: the chunk's pages
    // are written one after another when the row group closes, never copied into one buffer.
    std::string page;
    EncodePageHeader(header, &page);
    const auto header_size = static_cast<int64_t>(page.size());
    page.reserve(page.size() + body.size());
    page += body;
    const int64_t page_start = pages_bytes_;
    pages_bytes_ += static_cast<int64_t>(page.size());
    uncompressed_total_ += header_size + header.uncompressed_page_size;
    pages_.push_back(std::move(page));

    PageLocation loc;
    loc.offset = static_cast<int64_t>(page_start);
    loc.compressed_page_size = static_cast<int32_t>(pages_bytes_ - page_start);
    loc.first_row_index = rows_before_page_;
    offset_index_.page_locations.push_back(loc);
    EncodedStats ps = PageStats();
    column_index_.null_pages.push_back(!ps.has_min_max);
    column_index_.min_values.push_back(ps.has_min_max ? ps.min : std::string());
    column_index_.max_values.push_back(ps.has_min_max ? ps.max : std::string());
    column_index_.null_counts.push_back(page_nulls_);
    auto& es = encoding_stats_;
    PageType pt = v2 ? PageType::kDataPageV2 : PageType::kDataPage;
    if (!es.empty() && es.back().page_type == pt && es.back().encoding == encoding) {
      ++es.back().count;
    } else {
      es.push_back({pt, encoding, 1});
    }

    // Fold the page into the chunk.
    chunk_num_.Merge(page_num_);
    chunk_bytes_.Merge(page_bytes_);
    chunk_nulls_ += page_nulls_;
    chunk_nans_ += page_nans_;
    total_levels_ += page_levels_;
    rows_before_page_ += page_rows_;
    page_num_ = {};
    page_bytes_ = ByteMinMax{};
    page_bytes_.order = byte_order_;
    page_nulls_ = page_nans_ = page_levels_ = page_rows_ = page_values_ = 0;
    page_def_.clear();
    page_rep_.clear();
    indices_.clear();
    plain_.clear();
    bools_.clear();
    return OkStatus();
  }

  EncodedStats Encode(const MinMax<std::conditional_t<kBytes, int, T>>& num, const ByteMinMax& bytes) const {
    EncodedStats s;
    if constexpr (kBytes) {
      if (bytes.has) {
        s.has_min_max = true;
        s.min = bytes.min;
        s.max = bytes.max;
      }
    } else {
      if (num.has) {
        s.has_min_max = true;
        T lo = num.min, hi = num.max;
        if constexpr (kFloating) {
          // Signed zeros: the minimum is written as -0 and the maximum as +0.
          if (lo == 0) lo = -T(0);
          if (hi == 0) hi = T(0);
        }
        s.min = PlainBytes(lo);
        s.max = PlainBytes(hi);
        if constexpr (kBool) {
          s.min.resize(1);
          s.max.resize(1);
        }
      }
    }
    return s;
  }

  EncodedStats PageStats() const {
    EncodedStats s = Encode(page_num_, page_bytes_);
    s.null_count = page_nulls_;
    s.nan_count = page_nans_;
    s.num_values = page_levels_;
    return s;
  }
  EncodedStats ChunkStats() const {
    EncodedStats s = Encode(chunk_num_, chunk_bytes_);
    s.null_count = chunk_nulls_;
    s.nan_count = chunk_nans_;
    s.num_values = total_levels_;
    return s;
  }

  uint64_t HashValue(const T& v) const {
    if constexpr (kBytes) {
      return XXH64(v.data(), v.size(), 0);
    } else {
      return XXH64(&v, sizeof(T), 0);
    }
  }

  const LeafColumn& leaf_;
  const WriterOptions& options_;
  Compressor compressor_;
  bool bloom_;
  bool use_dictionary_ = true;
  bool use_delta_ = false;
  bool dict_used_ = false;
  int64_t dict_values_ = 0;         // Values the dictionary has taken in this chunk.
  int64_t probe_from_values_ = -1;  // Where DictionaryKeepsGrowing's window began, and the
  int64_t probe_from_size_ = 0;     // dictionary's size then.
  bool probe_done_ = false;
  ByteOrder byte_order_ = ByteOrder::kUnsigned;
  int32_t width_ = 0;

  NumericDictionary<std::conditional_t<kBytes || kBool, int32_t, T>> num_dict_;
  ByteDictionary byte_dict_;

  // The open page.
  std::vector<int16_t> page_def_, page_rep_;
  std::vector<uint32_t> indices_;
  std::vector<uint8_t> bools_;
  std::string plain_;
  int64_t page_levels_ = 0, page_nulls_ = 0, page_rows_ = 0, page_values_ = 0, page_nans_ = 0;
  MinMax<std::conditional_t<kBytes, int, T>> page_num_, chunk_num_;
  ByteMinMax page_bytes_, chunk_bytes_;

  // Scratch for converted values.
  std::vector<std::string_view> views_;
  formats::Buffer scratch_;

  // Which dictionary entries the open page uses (byte columns; see FoldDictionaryStats).
  std::vector<uint8_t> dict_marked_;
  std::vector<uint32_t> page_dict_entries_;

  PageBuffers& buffers_;  // Lent by the FileWriter, shared with the other columns.

  // The chunk so far.
  std::vector<std::string> pages_;
  int64_t pages_bytes_ = 0;
  int64_t uncompressed_total_ = 0;
  int64_t total_levels_ = 0, rows_before_page_ = 0, chunk_nulls_ = 0, chunk_nans_ = 0;
  int plain_pages_ = 0;
  Encoding value_encoding_plain_ = Encoding::kPlain;
  std::vector<PageEncodingStats> encoding_stats_;
  ColumnIndex column_index_;
  OffsetIndex offset_index_;
  std::unordered_set<uint64_t> bloom_hashes_;
};

}  // namespace

std::unique_ptr<ColumnWriter> MakeColumnWriter(const LeafColumn& leaf, const WriterOptions& options, bool bloom,
                                               PageBuffers* buffers) {
  switch (leaf.physical) {
    case PhysicalType::kBoolean: return std::make_unique<TypedColumnWriter<PhysicalType::kBoolean>>(leaf, options, bloom, buffers);
    case PhysicalType::kInt32: return std::make_unique<TypedColumnWriter<PhysicalType::kInt32>>(leaf, options, bloom, buffers);
    case PhysicalType::kInt64: return std::make_unique<TypedColumnWriter<PhysicalType::kInt64>>(leaf, options, bloom, buffers);
    case PhysicalType::kFloat: return std::make_unique<TypedColumnWriter<PhysicalType::kFloat>>(leaf, options, bloom, buffers);
    case PhysicalType::kDouble: return std::make_unique<TypedColumnWriter<PhysicalType::kDouble>>(leaf, options, bloom, buffers);
    case PhysicalType::kByteArray: return std::make_unique<TypedColumnWriter<PhysicalType::kByteArray>>(leaf, options, bloom, buffers);
    case PhysicalType::kFixedLenByteArray:
      return std::make_unique<TypedColumnWriter<PhysicalType::kFixedLenByteArray>>(leaf, options, bloom, buffers);
    case PhysicalType::kInt96: break;
  }
  return nullptr;
}

}  // namespace floe::parquet

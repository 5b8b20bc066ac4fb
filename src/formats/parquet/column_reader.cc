#include "formats/parquet/column_reader.h"

#include <zlib.h>

#include <algorithm>
#include <cstring>

#include "base/floor_div.h"
#include "formats/parquet/bit_packing.h"
#include "formats/parquet/compression.h"
#include "formats/parquet/delta_encoding.h"
#include "formats/parquet/rle_encoding.h"

namespace floe::parquet {
namespace {

using formats::Buffer;
using formats::TypeId;
using K = LogicalType::Kind;

constexpr int64_t kJulianEpochDay = 2440588;
constexpr int64_t kMicrosPerDay = 86400LL * 1000000;

int FixedPhysicalWidth(const LeafColumn& leaf) {
  switch (leaf.physical) {
    case PhysicalType::kBoolean: return 1;
    case PhysicalType::kInt32:
    case PhysicalType::kFloat: return 4;
    case PhysicalType::kInt64:
    case PhysicalType::kDouble: return 8;
    case PhysicalType::kInt96: return 12;
    case PhysicalType::kFixedLenByteArray: return leaf.type_length;
    case PhysicalType::kByteArray: return 0;
  }
  return 0;
}

__int128 BigEndianSigned(const uint8_t* p, size_t n) {
  if (n == 0) return 0;
  __int128 v = (p[0] & 0x80) ? -1 : 0;
  for (size_t i = 0; i < n; ++i) v = static_cast<__int128>((static_cast<unsigned __int128>(v) << 8) | p[i]);
  return v;
}

float HalfToFloat(uint16_t h) {
  uint32_t sign = (h >> 15) & 1, exp = (h >> 10) & 0x1F, frac = h & 0x3FF;
  float v;
  if (exp == 0) {
    v = static_cast<float>(frac) * (1.0f / 16777216.0f);  // 2^-24
  } else if (exp == 31) {
    v = frac ? __builtin_nanf("") : __builtin_inff();
  } else {
    uint32_t bits = ((exp + 112) << 23) | (frac << 13);
    std::memcpy(&v, &bits, 4);
  }
  return sign ? -v : v;
}

class ChunkDecoder {
 public:
  ChunkDecoder(const LeafColumn& leaf, const ColumnMetaData& meta, const ReaderOptions& options, DecodedChunk* out,
               bool whole_chunk = true)
      : leaf_(leaf), meta_(meta), options_(options), out_(out), width_(FixedPhysicalWidth(leaf)), page_mode_(!whole_chunk) {
    ba_offsets_.push_back(0);
    if (!whole_chunk) return;
    // Size the outputs once from the chunk's value count (capped: the count is unchecked).
    auto expect = static_cast<size_t>(std::clamp<int64_t>(meta.num_values, 0, int64_t{1} << 24));
    if (width_ > 0) phys_.Reserve(expect * static_cast<size_t>(width_));
    if (leaf.physical == PhysicalType::kByteArray) {
      ba_offsets_.reserve(expect + 1);
      ba_data_.Reserve(static_cast<size_t>(std::clamp<int64_t>(meta.total_uncompressed_size, 0, int64_t{1} << 28)));
    }
    if (leaf.max_def > 0) out->def.reserve(expect);
    if (leaf.max_rep > 0) out->rep.reserve(expect);
  }

  // Page mode: decodes the next data page (and any dictionary page before it) into `out`,
  // replacing what it held. False when the chunk has no more pages.
  Result<bool> NextDataPage(std::string_view bytes) {
    out_->def.clear();
    out_->all_present = false;
    out_->rep.clear();
    out_->num_levels = out_->num_values = 0;
    out_->offsets.clear();
    out_->dictionary.reset();
    out_->codes.clear();
    out_->codes_only = false;
    all_coded_ = true;
    phys_.Resize(0);
    ba_data_.Resize(0);
    ba_offsets_.assign(1, 0);
    while (pos_ < bytes.size() && out_->num_levels == 0) {
      if (total_levels_ >= meta_.num_values) break;
      FLOE_RETURN_IF_ERROR_CTX(DecodePage(bytes, &pos_), fmt::format("page {}", page_));
      ++page_;
    }
    if (out_->num_levels == 0) {
      if (total_levels_ != meta_.num_values) {
        return Corruption("chunk holds {} values, its metadata says {}", total_levels_, meta_.num_values);
      }
      return false;
    }
    total_levels_ += out_->num_levels;
    if (total_levels_ > meta_.num_values) return Corruption("pages hold more values than the chunk's {}", meta_.num_values);
    FLOE_RETURN_IF_ERROR(Finish());
    return true;
  }

  // Page mode: when the next page is a data page of at most `max_rows` rows, steps over it
  // without decompressing it and returns its row count; 0 when it must be decoded instead (a
  // dictionary page, a page straddling the end of the skip, or the end of the chunk).
  Result<int64_t> SkipDataPage(std::string_view bytes, int64_t max_rows) {
    if (pos_ >= bytes.size() || total_levels_ >= meta_.num_values) return 0;
    size_t header_len = 0;
    FLOE_ASSIGN_OR_RETURN_CTX(PageHeader header, DecodePageHeader(bytes.substr(pos_), &header_len), fmt::format("page {}", page_));
    if (header.type == PageType::kDictionaryPage) {
      // Later pages may need it; it is decoded once whatever is skipped.
      FLOE_RETURN_IF_ERROR_CTX(DecodePage(bytes, &pos_), fmt::format("page {}", page_));
      ++page_;
      return SkipDataPage(bytes, max_rows);
    }
    if (header.compressed_page_size < 0) return Corruption("page {}: negative page size", page_);
    if (static_cast<size_t>(header.compressed_page_size) > bytes.size() - pos_ - header_len) {
      return Corruption("page {}: page of {} bytes runs past its chunk", page_, header.compressed_page_size);
    }
    int64_t rows = -1;
    if (header.type == PageType::kDataPage && header.data_page_header) rows = header.data_page_header->num_values;
    if (header.type == PageType::kDataPageV2 && header.data_page_header_v2) rows = header.data_page_header_v2->num_rows;
    if (rows <= 0 || rows > max_rows) return 0;
    if (rows > meta_.num_values - total_levels_) return Corruption("page {}: pages hold more values than the chunk's {}", page_, meta_.num_values);
    pos_ += header_len + static_cast<size_t>(header.compressed_page_size);
    total_levels_ += rows;
    ++page_;
    return rows;
  }

  Status Run(std::string_view bytes) {
    size_t pos = 0;
    int page = 0;
    while (pos < bytes.size() && out_->num_levels < meta_.num_values) {
      FLOE_RETURN_IF_ERROR_CTX(DecodePage(bytes, &pos), fmt::format("page {}", page));
      ++page;
    }
    if (out_->num_levels != meta_.num_values) {
      return Corruption("chunk holds {} values, its metadata says {}", out_->num_levels, meta_.num_values);
    }
    return Finish();
  }

 private:
  Status DecodePage(std::string_view bytes, size_t* pos) {
    size_t header_len = 0;
    FLOE_ASSIGN_OR_RETURN(PageHeader header, DecodePageHeader(bytes.substr(*pos), &header_len));
    if (header.compressed_page_size < 0 || header.uncompressed_page_size < 0) return Corruption("negative page size");
    if (header.uncompressed_page_size > options_.max_page_bytes) {
      return Corruption("page claims {} bytes, over the {} byte limit", header.uncompressed_page_size, options_.max_page_bytes);
    }
    size_t start = *pos + header_len;
    if (static_cast<size_t>(header.compressed_page_size) > bytes.size() - start) {
      return Corruption("page of {} bytes runs past its chunk", header.compressed_page_size);
    }
    std::string_view body = bytes.substr(start, static_cast<size_t>(header.compressed_page_size));
    *pos = start + body.size();
    if (header.crc && options_.verify_page_crc) {
      uint32_t crc = static_cast<uint32_t>(crc32(0L, reinterpret_cast<const Bytef*>(body.data()), static_cast<uInt>(body.size())));
      if (crc != static_cast<uint32_t>(*header.crc)) return Corruption("page CRC mismatch");
    }
    switch (header.type) {
      case PageType::kDictionaryPage: return DecodeDictionary(header, body);
      case PageType::kDataPage: return DecodeDataPageV1(header, body);
      case PageType::kDataPageV2: return DecodeDataPageV2(header, body);
      default: return OkStatus();  // Index pages and unknown page types carry no values.
    }
  }

  Status Decompressed(std::string_view body, int32_t size, std::string_view* out) {
    if (meta_.codec == Codec::kUncompressed) {
      if (body.size() != static_cast<size_t>(size)) return Corruption("uncompressed page size mismatch");
      *out = body;
      return OkStatus();
    }
    scratch_.Resize(static_cast<size_t>(size));
    FLOE_RETURN_IF_ERROR(Decompress(meta_.codec, body, scratch_.data(), scratch_.size()));
    *out = std::string_view(reinterpret_cast<const char*>(scratch_.data()), scratch_.size());
    return OkStatus();
  }

  Status DecodeDictionary(const PageHeader& header, std::string_view body) {
    if (!header.dictionary_page_header) return Corruption("dictionary page without its header");
    if (have_dict_) return Corruption("second dictionary page in a chunk");
    int32_t n = header.dictionary_page_header->num_values;
    if (n < 0 || n > options_.max_values_per_page) return Corruption("dictionary of {} values", n);
    std::string_view data;
    FLOE_RETURN_IF_ERROR(Decompressed(body, header.uncompressed_page_size, &data));
    if (leaf_.physical == PhysicalType::kBoolean) return Corruption("dictionary for a boolean column");
    if (width_ > 0) {
      size_t need = static_cast<size_t>(n) * static_cast<size_t>(width_);
      if (data.size() < need) return Corruption("dictionary page holds {} bytes, {} values need {}", data.size(), n, need);
      dict_fixed_.Resize(0);
      dict_fixed_.Append(data.data(), need);
    } else {
      dict_offsets_.assign(1, 0);
      dict_data_.Clear();
      FLOE_RETURN_IF_ERROR(PlainByteArrays(data, n, &dict_data_, &dict_offsets_, nullptr));
    }
    dict_count_ = n;
    have_dict_ = true;
    const TypeId type = leaf_.node->type.id;
    if (leaf_.physical == PhysicalType::kByteArray && (type == TypeId::kString || type == TypeId::kBinary)) {
      auto dictionary = std::make_shared<formats::ColumnVector>(leaf_.node->type);
      dictionary->values = dict_data_;
      dictionary->offsets = dict_offsets_;
      dictionary->length = n;
      dictionary_ = std::move(dictionary);
    }
    return OkStatus();
  }

  // Decodes `n` levels into `out`. When `all_max` is given and the levels are one run of `max`,
  // they are only stepped over and *all_max is set.
  Status DecodeLevels(Encoding encoding, std::string_view* data, int16_t max, int64_t n, bool prefixed,
                      size_t v2_length, std::vector<int16_t>* out, bool* all_max = nullptr) {
    int width = bits::BitWidth(static_cast<uint64_t>(max));
    size_t at = out->size();
    int16_t* dst = nullptr;
    if (encoding == Encoding::kBitPacked && prefixed) {
      out->resize(at + static_cast<size_t>(n));
      dst = out->data() + at;
      // Deprecated: packed most-significant bit first, no length prefix.
      size_t bytes = (static_cast<size_t>(n) * static_cast<size_t>(width) + 7) / 8;
      if (data->size() < bytes) return Corruption("bit-packed levels truncated");
      const auto* p = reinterpret_cast<const uint8_t*>(data->data());
      size_t bit = 0;
      for (int64_t i = 0; i < n; ++i) {
        int v = 0;
        for (int b = 0; b < width; ++b, ++bit) v = (v << 1) | ((p[bit >> 3] >> (7 - (bit & 7))) & 1);
        dst[i] = static_cast<int16_t>(v);
      }
      data->remove_prefix(bytes);
    } else {
      if (prefixed && encoding != Encoding::kRle) return Corruption("levels in encoding {}", EncodingName(encoding));
      size_t len = v2_length;
      if (prefixed) {
        if (data->size() < 4) return Corruption("level length truncated");
        uint32_t l;
        std::memcpy(&l, data->data(), 4);
        data->remove_prefix(4);
        len = l;
      }
      if (len > data->size()) return Corruption("levels of {} bytes past the page end", len);
      if (all_max != nullptr && RleDecoder(reinterpret_cast<const uint8_t*>(data->data()), len, width).StartsWithRunOf(n, static_cast<uint64_t>(max))) {
        data->remove_prefix(len);
        *all_max = true;
        return OkStatus();
      }
      out->resize(at + static_cast<size_t>(n));
      dst = out->data() + at;
      RleDecoder dec(reinterpret_cast<const uint8_t*>(data->data()), len, width);
      FLOE_RETURN_IF_ERROR_CTX(dec.Decode(dst, n), "levels");
      data->remove_prefix(len);
    }
    for (int64_t i = 0; i < n; ++i) {
      if (static_cast<uint16_t>(dst[i]) > static_cast<uint16_t>(max)) return Corruption("level {} above the maximum {}", dst[i], max);
    }
    return OkStatus();
  }

  int64_t CountValues(int64_t n) const {
    if (leaf_.max_def == 0 || out_->all_present) return n;
    const int16_t* d = out_->def.data() + out_->def.size() - static_cast<size_t>(n);
    int64_t c = 0;
    for (int64_t i = 0; i < n; ++i) c += d[i] == leaf_.max_def;
    return c;
  }

  // Where DecodeLevels may note a page's definition levels as all present: page mode, for flat
  // columns, when the page is the first data page `out_` holds.
  bool* AllPresentSlot() {
    return page_mode_ && leaf_.max_rep == 0 && out_->num_levels == 0 ? &out_->all_present : nullptr;
  }

  Status CheckPageValues(int32_t n) const {
    if (n < 0 || n > options_.max_values_per_page) return Corruption("page of {} values", n);
    if (total_levels_ + out_->num_levels + n > meta_.num_values) return Corruption("pages hold more values than the chunk's {}", meta_.num_values);
    return OkStatus();
  }

  Status DecodeDataPageV1(const PageHeader& header, std::string_view body) {
    if (!header.data_page_header) return Corruption("data page without its header");
    const DataPageHeader& h = *header.data_page_header;
    FLOE_RETURN_IF_ERROR(CheckPageValues(h.num_values));
    int64_t n = h.num_values;
    if (leaf_.max_def == 0 && leaf_.max_rep == 0 && h.encoding == Encoding::kPlain && width_ > 0 &&
        leaf_.physical != PhysicalType::kBoolean && meta_.codec != Codec::kUncompressed &&
        static_cast<int64_t>(header.uncompressed_page_size) == n * width_) {
      // The page is nothing but the values: decompress straight into the output.
      size_t at = phys_.size();
      phys_.Resize(at + static_cast<size_t>(header.uncompressed_page_size));
      FLOE_RETURN_IF_ERROR(Decompress(meta_.codec, body, phys_.data() + at, static_cast<size_t>(header.uncompressed_page_size)));
      out_->num_levels += n;
      out_->num_values += n;
      return OkStatus();
    }
    std::string_view data;
    FLOE_RETURN_IF_ERROR(Decompressed(body, header.uncompressed_page_size, &data));
    if (leaf_.max_rep > 0) FLOE_RETURN_IF_ERROR(DecodeLevels(h.repetition_level_encoding, &data, leaf_.max_rep, n, true, 0, &out_->rep));
    if (leaf_.max_def > 0) {
      FLOE_RETURN_IF_ERROR(DecodeLevels(h.definition_level_encoding, &data, leaf_.max_def, n, true, 0, &out_->def, AllPresentSlot()));
    }
    out_->num_levels += n;
    return DecodeValues(h.encoding, data, CountValues(n));
  }

  Status DecodeDataPageV2(const PageHeader& header, std::string_view body) {
    if (!header.data_page_header_v2) return Corruption("data page v2 without its header");
    const DataPageHeaderV2& h = *header.data_page_header_v2;
    FLOE_RETURN_IF_ERROR(CheckPageValues(h.num_values));
    if (h.repetition_levels_byte_length < 0 || h.definition_levels_byte_length < 0 ||
        static_cast<int64_t>(h.repetition_levels_byte_length) + h.definition_levels_byte_length > static_cast<int64_t>(body.size()) ||
        static_cast<int64_t>(h.repetition_levels_byte_length) + h.definition_levels_byte_length > header.uncompressed_page_size) {
      return Corruption("level lengths past the page");
    }
    int64_t n = h.num_values;
    std::string_view levels = body.substr(0, static_cast<size_t>(h.repetition_levels_byte_length + h.definition_levels_byte_length));
    if (leaf_.max_rep > 0) {
      FLOE_RETURN_IF_ERROR(DecodeLevels(Encoding::kRle, &levels, leaf_.max_rep, n, false,
                                        static_cast<size_t>(h.repetition_levels_byte_length), &out_->rep));
    } else {
      levels.remove_prefix(static_cast<size_t>(h.repetition_levels_byte_length));
    }
    if (leaf_.max_def > 0) {
      FLOE_RETURN_IF_ERROR(DecodeLevels(Encoding::kRle, &levels, leaf_.max_def, n, false,
                                        static_cast<size_t>(h.definition_levels_byte_length), &out_->def, AllPresentSlot()));
    }
    out_->num_levels += n;
    size_t level_bytes = static_cast<size_t>(h.repetition_levels_byte_length + h.definition_levels_byte_length);
    std::string_view values = body.substr(level_bytes);
    int32_t values_size = header.uncompressed_page_size - static_cast<int32_t>(level_bytes);
    std::string_view data = values;
    if (h.is_compressed && meta_.codec != Codec::kUncompressed) {
      FLOE_RETURN_IF_ERROR(Decompressed(values, values_size, &data));
    }
    return DecodeValues(h.encoding, data, CountValues(n));
  }

  Status PlainByteArrays(std::string_view data, int64_t n, Buffer* bytes, std::vector<int32_t>* offsets, size_t* used) {
    const char* p = data.data();
    const char* end = p + data.size();
    // First pass: validate lengths and size the output.
    const char* q = p;
    for (int64_t i = 0; i < n; ++i) {
      if (end - q < 4) return Corruption("byte array {} of {} truncated", i, n);
      uint32_t len;
      std::memcpy(&len, q, 4);
      q += 4;
      if (len > static_cast<size_t>(end - q)) return Corruption("byte array {} of length {} past the page end", i, len);
      q += len;
    }
    size_t total = static_cast<size_t>(q - p) - 4 * static_cast<size_t>(n);
    if (bytes->size() + total > static_cast<size_t>(INT32_MAX)) return ResourceExhausted("byte arrays over 2 GiB in one chunk");
    size_t at = bytes->size();
    bytes->Resize(at + total);
    uint8_t* dst = bytes->data() + at;
    size_t off = at;
    size_t base = offsets->size();
    offsets->resize(base + static_cast<size_t>(n));
    int32_t* o = offsets->data() + base;
    q = p;
    for (int64_t i = 0; i < n; ++i) {
      uint32_t len;
      std::memcpy(&len, q, 4);
      q += 4;
      if (len > 0) std::memcpy(dst, q, len);  // dst may be null while every value so far was empty.
      dst += len;
      q += len;
      off += len;
      o[i] = static_cast<int32_t>(off);
    }
    if (used) *used = static_cast<size_t>(q - p);
    return OkStatus();
  }

  Status DecodeValues(Encoding encoding, std::string_view data, int64_t n) {
    out_->num_values += n;
    if (n > 0 && encoding != Encoding::kPlainDictionary && encoding != Encoding::kRleDictionary) all_coded_ = false;
    switch (encoding) {
      case Encoding::kPlain: return DecodePlain(data, n);
      case Encoding::kPlainDictionary:
      case Encoding::kRleDictionary: return DecodeDictionaryIndices(data, n);
      case Encoding::kRle: {
        if (leaf_.physical != PhysicalType::kBoolean) return Corruption("RLE values for a non-boolean column");
        if (data.size() < 4) return Corruption("RLE booleans truncated");
        uint32_t len;
        std::memcpy(&len, data.data(), 4);
        if (len > data.size() - 4) return Corruption("RLE booleans past the page end");
        RleDecoder dec(reinterpret_cast<const uint8_t*>(data.data()) + 4, len, 1);
        size_t at = phys_.size();
        phys_.Resize(at + static_cast<size_t>(n));
        return dec.Decode(phys_.data() + at, n);
      }
      case Encoding::kDeltaBinaryPacked: {
        size_t at = phys_.size();
        if (leaf_.physical == PhysicalType::kInt32) {
          phys_.Resize(at + static_cast<size_t>(n) * 4);
          return DeltaBinaryPackedDecode<int32_t>(data, n, reinterpret_cast<int32_t*>(phys_.data() + at), nullptr);
        }
        if (leaf_.physical == PhysicalType::kInt64) {
          phys_.Resize(at + static_cast<size_t>(n) * 8);
          return DeltaBinaryPackedDecode<int64_t>(data, n, reinterpret_cast<int64_t*>(phys_.data() + at), nullptr);
        }
        return Corruption("DELTA_BINARY_PACKED for a {} column", PhysicalTypeName(leaf_.physical));
      }
      case Encoding::kDeltaLengthByteArray:
        if (leaf_.physical != PhysicalType::kByteArray) return Corruption("DELTA_LENGTH_BYTE_ARRAY for a non-byte-array column");
        return DeltaLengthByteArrayDecode(data, n, &ba_data_, &ba_offsets_, nullptr);
      case Encoding::kDeltaByteArray: {
        if (leaf_.physical == PhysicalType::kByteArray) return DeltaByteArrayDecode(data, n, &ba_data_, &ba_offsets_);
        if (leaf_.physical != PhysicalType::kFixedLenByteArray) return Corruption("DELTA_BYTE_ARRAY for a {} column", PhysicalTypeName(leaf_.physical));
        Buffer bytes;
        std::vector<int32_t> offsets{0};
        FLOE_RETURN_IF_ERROR(DeltaByteArrayDecode(data, n, &bytes, &offsets));
        for (size_t i = 0; i + 1 < offsets.size(); ++i) {
          if (offsets[i + 1] - offsets[i] != width_) return Corruption("DELTA_BYTE_ARRAY value of the wrong fixed length");
        }
        phys_.Append(bytes.data(), bytes.size());
        return OkStatus();
      }
      case Encoding::kByteStreamSplit: {
        if (width_ <= 0 || leaf_.physical == PhysicalType::kBoolean || leaf_.physical == PhysicalType::kInt96) {
          return Corruption("BYTE_STREAM_SPLIT for a {} column", PhysicalTypeName(leaf_.physical));
        }
        size_t w = static_cast<size_t>(width_);
        if (data.size() < static_cast<size_t>(n) * w) return Corruption("BYTE_STREAM_SPLIT data truncated");
        size_t at = phys_.size();
        phys_.Resize(at + static_cast<size_t>(n) * w);
        uint8_t* dst = phys_.data() + at;
        const auto* src = reinterpret_cast<const uint8_t*>(data.data());
        for (size_t b = 0; b < w; ++b) {
          const uint8_t* stream = src + b * static_cast<size_t>(n);
          for (int64_t i = 0; i < n; ++i) dst[static_cast<size_t>(i) * w + b] = stream[i];
        }
        return OkStatus();
      }
      case Encoding::kBitPacked:
        break;
    }
    return Corruption("unsupported value encoding {}", static_cast<int>(encoding));
  }

  Status DecodePlain(std::string_view data, int64_t n) {
    if (leaf_.physical == PhysicalType::kBoolean) {
      if (data.size() * 8 < static_cast<size_t>(n)) return Corruption("PLAIN booleans truncated");
      size_t at = phys_.size();
      phys_.Resize(at + static_cast<size_t>(n));
      uint8_t* dst = phys_.data() + at;
      const auto* src = reinterpret_cast<const uint8_t*>(data.data());
      for (int64_t i = 0; i < n; ++i) dst[i] = (src[i >> 3] >> (i & 7)) & 1;
      return OkStatus();
    }
    if (width_ > 0) {
      size_t need = static_cast<size_t>(n) * static_cast<size_t>(width_);
      if (data.size() < need) return Corruption("PLAIN values truncated: {} bytes for {} values", data.size(), n);
      phys_.Append(data.data(), need);
      return OkStatus();
    }
    return PlainByteArrays(data, n, &ba_data_, &ba_offsets_, nullptr);
  }

  Status DecodeDictionaryIndices(std::string_view data, int64_t n) {
    if (!have_dict_) return Corruption("dictionary-encoded page without a dictionary");
    if (n == 0) return OkStatus();
    if (data.empty()) return Corruption("dictionary indices missing");
    int width = static_cast<uint8_t>(data[0]);
    if (width > 32) return Corruption("dictionary index width {}", width);
    indices_.Resize(static_cast<size_t>(n) * 4);
    RleDecoder dec(reinterpret_cast<const uint8_t*>(data.data()) + 1, data.size() - 1, width);
    uint32_t max_seen = 0;
    FLOE_RETURN_IF_ERROR_CTX(dec.DecodeIndices(indices_.As<uint32_t>(), n, &max_seen), "dictionary indices");
    if (max_seen >= static_cast<uint64_t>(dict_count_)) return Corruption("dictionary index {} of {} entries", max_seen, dict_count_);
    const uint32_t* idx = indices_.As<uint32_t>();
    if (width_ > 0) {
      size_t at = phys_.size();
      phys_.Resize(at + static_cast<size_t>(n) * static_cast<size_t>(width_));
      uint8_t* dst = phys_.data() + at;
      if (width_ == 8) {
        const auto* dict = dict_fixed_.As<uint64_t>();
        auto* d = reinterpret_cast<uint64_t*>(dst);
        for (int64_t i = 0; i < n; ++i) d[i] = dict[idx[i]];
      } else if (width_ == 4) {
        const auto* dict = dict_fixed_.As<uint32_t>();
        auto* d = reinterpret_cast<uint32_t*>(dst);
        for (int64_t i = 0; i < n; ++i) d[i] = dict[idx[i]];
      } else {
        size_t w = static_cast<size_t>(width_);
        for (int64_t i = 0; i < n; ++i) std::memcpy(dst + static_cast<size_t>(i) * w, dict_fixed_.data() + idx[i] * w, w);
      }
      return OkStatus();
    }
    if (dictionary_ != nullptr && all_coded_) {
      out_->codes.insert(out_->codes.end(), idx, idx + n);
      // A page is all one encoding: its strings are copied once, by ColumnChunkStream::Read.
      if (page_mode_) return OkStatus();
    }
    const int32_t* doff = dict_offsets_.data();
    size_t total = 0;
    for (int64_t i = 0; i < n; ++i) total += static_cast<size_t>(doff[idx[i] + 1] - doff[idx[i]]);
    if (ba_data_.size() + total > static_cast<size_t>(INT32_MAX)) return ResourceExhausted("byte arrays over 2 GiB in one chunk");
    size_t at = ba_data_.size();
    ba_data_.Resize(at + total);
    uint8_t* dst = ba_data_.data() + at;
    const uint8_t* src = dict_data_.data();
    size_t base = ba_offsets_.size();
    ba_offsets_.resize(base + static_cast<size_t>(n));
    int32_t* o = ba_offsets_.data() + base;
    auto off = static_cast<int32_t>(at);
    for (int64_t i = 0; i < n; ++i) {
      int32_t b = doff[idx[i]];
      int32_t len = doff[idx[i] + 1] - b;
      formats::CopyStringBytes(dst, src + b, static_cast<size_t>(len));
      dst += len;
      off += len;
      o[i] = off;
    }
    return OkStatus();
  }

  // Converts the dense physical values into the batch type.
  Status Finish() {
    const formats::DataType& type = leaf_.node->type;
    int64_t n = out_->num_values;
    if (leaf_.physical == PhysicalType::kByteArray) {
      if (page_mode_ && dictionary_ != nullptr && all_coded_ && static_cast<int64_t>(out_->codes.size()) == n &&
          type.id != TypeId::kDecimal) {
        out_->dictionary = dictionary_;
        out_->codes_only = true;
        return OkStatus();
      }
      if (static_cast<int64_t>(ba_offsets_.size()) != n + 1) return Corruption("byte array count mismatch");
      if (type.id == TypeId::kDecimal) {
        out_->values.Resize(static_cast<size_t>(n) * 16);
        auto* d = out_->values.As<__int128>();
        for (int64_t i = 0; i < n; ++i) {
          int32_t b = ba_offsets_[static_cast<size_t>(i)], e = ba_offsets_[static_cast<size_t>(i) + 1];
          if (e - b > 16) return Corruption("decimal of {} bytes", e - b);
          d[i] = BigEndianSigned(ba_data_.data() + b, static_cast<size_t>(e - b));
        }
        return OkStatus();
      }
      // Swap rather than move: in page mode the previous page's buffers come back for reuse.
      std::swap(out_->values, ba_data_);
      std::swap(out_->offsets, ba_offsets_);
      if (dictionary_ != nullptr && all_coded_ && static_cast<int64_t>(out_->codes.size()) == n) {
        out_->dictionary = dictionary_;
      } else {
        out_->codes.clear();
      }
      return OkStatus();
    }
    if (static_cast<int64_t>(phys_.size()) != n * width_) return Corruption("value count mismatch");
    const LogicalType& lt = leaf_.logical;
    auto convert64 = [&](auto&& f) {
      out_->values.Resize(static_cast<size_t>(n) * 8);
      auto* d = out_->values.As<int64_t>();
      for (int64_t i = 0; i < n; ++i) d[i] = f(i);
    };
    switch (type.id) {
      case TypeId::kDecimal: {
        out_->values.Resize(static_cast<size_t>(n) * 16);
        auto* d = out_->values.As<__int128>();
        if (leaf_.physical == PhysicalType::kInt32) {
          for (int64_t i = 0; i < n; ++i) d[i] = phys_.As<int32_t>()[i];
        } else if (leaf_.physical == PhysicalType::kInt64) {
          for (int64_t i = 0; i < n; ++i) d[i] = phys_.As<int64_t>()[i];
        } else {
          size_t w = static_cast<size_t>(width_);
          for (int64_t i = 0; i < n; ++i) d[i] = BigEndianSigned(phys_.data() + static_cast<size_t>(i) * w, w);
        }
        return OkStatus();
      }
      case TypeId::kTime:
        if (leaf_.physical == PhysicalType::kInt32) {
          const auto* s = phys_.As<int32_t>();
          convert64([&](int64_t i) { return int64_t{s[i]} * 1000; });
          return OkStatus();
        }
        if (lt.kind == K::kTime && lt.unit == TimeUnit::kNanos) {
          const auto* s = phys_.As<int64_t>();
          convert64([&](int64_t i) { return FloorDiv(s[i], 1000); });
          return OkStatus();
        }
        break;
      case TypeId::kTimestamp:
      case TypeId::kTimestampTz: {
        if (leaf_.physical == PhysicalType::kInt96) {
          const uint8_t* s = phys_.data();
          convert64([&](int64_t i) {
            int64_t nanos;
            int32_t day;
            std::memcpy(&nanos, s + i * 12, 8);
            std::memcpy(&day, s + i * 12 + 8, 4);
            return (int64_t{day} - kJulianEpochDay) * kMicrosPerDay + FloorDiv(nanos, 1000);
          });
          return OkStatus();
        }
        bool millis = (lt.kind == K::kTimestamp && lt.unit == TimeUnit::kMillis) ||
                      (lt.kind != K::kTimestamp && leaf_.converted == ConvertedType::kTimestampMillis);
        bool nanos = lt.kind == K::kTimestamp && lt.unit == TimeUnit::kNanos;
        const auto* s = phys_.As<int64_t>();
        if (millis) {
          convert64([&](int64_t i) { return s[i] * 1000; });
          return OkStatus();
        }
        if (nanos) {
          convert64([&](int64_t i) { return FloorDiv(s[i], 1000); });
          return OkStatus();
        }
        break;
      }
      case TypeId::kInt64:
        if (leaf_.physical == PhysicalType::kInt32) {
          const auto* s = phys_.As<uint32_t>();
          convert64([&](int64_t i) { return int64_t{s[i]}; });
          return OkStatus();
        }
        break;
      case TypeId::kFloat:
        if (leaf_.physical == PhysicalType::kFixedLenByteArray) {
          out_->values.Resize(static_cast<size_t>(n) * 4);
          auto* d = out_->values.As<float>();
          for (int64_t i = 0; i < n; ++i) {
            uint16_t h;
            std::memcpy(&h, phys_.data() + i * 2, 2);
            d[i] = HalfToFloat(h);
          }
          return OkStatus();
        }
        break;
      default:
        break;
    }
    std::swap(out_->values, phys_);
    return OkStatus();
  }

  const LeafColumn& leaf_;
  const ColumnMetaData& meta_;
  const ReaderOptions& options_;
  DecodedChunk* out_;
  int width_;
  size_t pos_ = 0;  // Page mode: the next page's offset.
  int page_ = 0;
  int64_t total_levels_ = 0;
  Buffer scratch_;
  Buffer phys_;
  Buffer ba_data_;
  std::vector<int32_t> ba_offsets_;
  bool have_dict_ = false;
  int64_t dict_count_ = 0;
  Buffer dict_fixed_;
  Buffer dict_data_;
  std::vector<int32_t> dict_offsets_;
  Buffer indices_;
  // The dictionary as a batch vector (strings and binary only), shared by every batch read
  // from this chunk; and whether every value of the output so far came from it.
  std::shared_ptr<const formats::ColumnVector> dictionary_;
  bool all_coded_ = true;
  bool page_mode_;
};

}  // namespace

struct ColumnChunkStream::State {
  State(const LeafColumn& leaf, const ColumnMetaData& meta, std::string bytes, const ReaderOptions& options)
      : bytes(std::move(bytes)), options(options), decoder(leaf, meta, this->options, &page, false) {}
  std::string bytes;
  ReaderOptions options;
  DecodedChunk page;
  ChunkDecoder decoder;
  int64_t level_pos = 0, value_pos = 0;
};

ColumnChunkStream::ColumnChunkStream(const LeafColumn& leaf, const ColumnMetaData& meta, std::string bytes,
                                     const ReaderOptions& options)
    : leaf_(leaf), state_(std::make_unique<State>(leaf, meta, std::move(bytes), options)) {}
ColumnChunkStream::~ColumnChunkStream() = default;

namespace {

// Appends the dictionary strings named by `codes` (already checked against its size).
Status AppendByCode(const formats::ColumnVector& dictionary, const uint32_t* codes, int64_t n, DecodedChunk* out) {
  const int32_t* doff = dictionary.offsets.data();
  size_t total = 0;
  for (int64_t i = 0; i < n; ++i) total += static_cast<size_t>(doff[codes[i] + 1] - doff[codes[i]]);
  size_t at = out->values.size();
  if (at + total > static_cast<size_t>(INT32_MAX)) return ResourceExhausted("byte arrays over 2 GiB in one batch");
  size_t base = out->offsets.size();
  out->offsets.resize(base + static_cast<size_t>(n));
  int32_t* o = out->offsets.data() + base;
  auto off = static_cast<int32_t>(at);
  if (total == 0) {
    // Every string is empty; the byte buffers may be null, which memcpy must not see.
    std::fill(o, o + n, off);
    return OkStatus();
  }
  out->values.Resize(at + total);
  uint8_t* dst = out->values.data() + at;
  const uint8_t* src = dictionary.values.data();
  for (int64_t i = 0; i < n; ++i) {
    int32_t b = doff[codes[i]];
    int32_t len = doff[codes[i] + 1] - b;
    formats::CopyStringBytes(dst, src + b, static_cast<size_t>(len));
    dst += len;
    off += len;
    o[i] = off;
  }
  return OkStatus();
}

}  // namespace

Status ColumnChunkStream::Read(int64_t rows, DecodedChunk* out) {
  State& s = *state_;
  const bool bytes_type = leaf_.node->type.HasOffsets();
  const auto width = static_cast<size_t>(leaf_.node->type.FixedWidth());
  if (bytes_type && out->offsets.empty()) out->offsets.push_back(0);
  if (bytes_type) {
    out->offsets.reserve(out->offsets.size() + static_cast<size_t>(rows));
  } else {
    out->values.Reserve(out->values.size() + static_cast<size_t>(rows) * width);
  }
  while (rows > 0) {
    if (s.level_pos == s.page.num_levels) {
      FLOE_ASSIGN_OR_RETURN(bool more, s.decoder.NextDataPage(s.bytes));
      if (!more) return Corruption("column ends {} rows early", rows);
      ++pages_decoded_;
      s.level_pos = s.value_pos = 0;
    }
    int64_t m = std::min(rows, s.page.num_levels - s.level_pos);
    int64_t v = m;
    if (leaf_.max_def > 0) {
      // Levels stay unexpanded while every page read so far had no null.
      if (out->num_levels == 0) out->all_present = s.page.all_present;
      if (out->all_present && !s.page.all_present) {
        out->def.assign(static_cast<size_t>(out->num_levels), leaf_.max_def);
        out->all_present = false;
      }
      if (s.page.all_present) {
        if (!out->all_present) out->def.insert(out->def.end(), static_cast<size_t>(m), leaf_.max_def);
      } else {
        const int16_t* d = s.page.def.data() + s.level_pos;
        out->def.insert(out->def.end(), d, d + m);
        v = 0;
        for (int64_t i = 0; i < m; ++i) v += d[i] == leaf_.max_def;
      }
    }
    if (bytes_type) {
      // Dictionary codes survive only while every value appended came from one dictionary.
      if (s.page.dictionary != nullptr && (out->num_values == 0 || out->dictionary == s.page.dictionary)) {
        out->dictionary = s.page.dictionary;
        const uint32_t* c = s.page.codes.data() + s.value_pos;
        out->codes.insert(out->codes.end(), c, c + v);
      } else if (v > 0 || s.page.dictionary == nullptr) {
        out->dictionary.reset();
        out->codes.clear();
      }
      if (s.page.codes_only) {
        FLOE_RETURN_IF_ERROR(AppendByCode(*s.page.dictionary, s.page.codes.data() + s.value_pos, v, out));
        out->num_levels += m;
        out->num_values += v;
        s.level_pos += m;
        s.value_pos += v;
        rows -= m;
        continue;
      }
      const int32_t* o = s.page.offsets.data() + s.value_pos;
      int32_t base = o[0];
      auto dest_base = static_cast<int32_t>(out->values.size());
      out->values.Append(s.page.values.data() + base, static_cast<size_t>(o[v] - base));
      size_t at = out->offsets.size();
      out->offsets.resize(at + static_cast<size_t>(v));
      int32_t* dst = out->offsets.data() + at;
      for (int64_t i = 0; i < v; ++i) dst[i] = dest_base + o[i + 1] - base;
    } else {
      out->values.Append(s.page.values.data() + static_cast<size_t>(s.value_pos) * width, static_cast<size_t>(v) * width);
    }
    out->num_levels += m;
    out->num_values += v;
    s.level_pos += m;
    s.value_pos += v;
    rows -= m;
  }
  return OkStatus();
}

Status ColumnChunkStream::Skip(int64_t rows) {
  State& s = *state_;
  while (rows > 0) {
    if (s.level_pos < s.page.num_levels) {
      int64_t m = std::min(rows, s.page.num_levels - s.level_pos);
      int64_t v = m;
      if (leaf_.max_def > 0 && !s.page.all_present) {
        const int16_t* d = s.page.def.data() + s.level_pos;
        v = 0;
        for (int64_t i = 0; i < m; ++i) v += d[i] == leaf_.max_def;
      }
      s.level_pos += m;
      s.value_pos += v;
      rows -= m;
      continue;
    }
    FLOE_ASSIGN_OR_RETURN(int64_t skipped, s.decoder.SkipDataPage(s.bytes, rows));
    if (skipped > 0) {
      rows -= skipped;
      ++pages_skipped_;
      continue;
    }
    FLOE_ASSIGN_OR_RETURN(bool more, s.decoder.NextDataPage(s.bytes));
    if (!more) return Corruption("column ends {} rows early", rows);
    ++pages_decoded_;
    s.level_pos = s.value_pos = 0;
  }
  return OkStatus();
}

Status DecodeColumnChunk(const LeafColumn& leaf, const ColumnMetaData& meta, std::string_view bytes, int64_t expected_rows,
                         const ReaderOptions& options, DecodedChunk* out) {
  if (meta.num_values < 0) return Corruption("negative value count");
  if (leaf.physical == PhysicalType::kFixedLenByteArray && leaf.type_length <= 0) return Corruption("fixed length {}", leaf.type_length);
  if (leaf.max_rep == 0 && meta.num_values != expected_rows) {
    return Corruption("chunk holds {} values for {} rows", meta.num_values, expected_rows);
  }
  ChunkDecoder decoder(leaf, meta, options, out);
  return decoder.Run(bytes);
}

}  // namespace floe::parquet

// The Parquet footer, page header and page index structures (parquet.thrift), decoded from and
// encoded to the Thrift compact protocol.
//
// Only the fields floe reads or writes are kept; unknown fields are skipped on decode. Plain
// values, owned by whoever decoded them; immutable once built, so any thread may read them.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "base/result.h"

namespace floe::parquet {

enum class PhysicalType : int32_t {
  kBoolean = 0,
  kInt32 = 1,
  kInt64 = 2,
  kInt96 = 3,
  kFloat = 4,
  kDouble = 5,
  kByteArray = 6,
  kFixedLenByteArray = 7,
};

enum class ConvertedType : int32_t {
  kNone = -1,
  kUtf8 = 0,
  kMap = 1,
  kMapKeyValue = 2,
  kList = 3,
  kEnum = 4,
  kDecimal = 5,
  kDate = 6,
  kTimeMillis = 7,
  kTimeMicros = 8,
  kTimestampMillis = 9,
  kTimestampMicros = 10,
  kUint8 = 11,
  kUint16 = 12,
  kUint32 = 13,
  kUint64 = 14,
  kInt8 = 15,
  kInt16 = 16,
  kInt32 = 17,
  kInt64 = 18,
  kJson = 19,
  kBson = 20,
  kInterval = 21,
};

enum class Repetition : int32_t { kRequired = 0, kOptional = 1, kRepeated = 2 };

enum class Encoding : int32_t {
  kPlain = 0,
  kPlainDictionary = 2,
  kRle = 3,
  kBitPacked = 4,
  kDeltaBinaryPacked = 5,
  kDeltaLengthByteArray = 6,
  kDeltaByteArray = 7,
  kRleDictionary = 8,
  kByteStreamSplit = 9,
};

enum class Codec : int32_t {
  kUncompressed = 0,
  kSnappy = 1,
  kGzip = 2,
  kLzo = 3,
  kBrotli = 4,
  kLz4 = 5,  // Hadoop-framed LZ4 (deprecated), or an LZ4 frame from some writers.
  kZstd = 6,
  kLz4Raw = 7,
};

enum class PageType : int32_t { kDataPage = 0, kIndexPage = 1, kDictionaryPage = 2, kDataPageV2 = 3 };

enum class TimeUnit : int8_t { kMillis, kMicros, kNanos };

// The LogicalType union; kind kNone when absent.
struct LogicalType {
  enum class Kind : int8_t {
    kNone,
    kString,
    kMap,
    kList,
    kEnum,
    kDecimal,
    kDate,
    kTime,
    kTimestamp,
    kInteger,
    kUnknown,
    kJson,
    kBson,
    kUuid,
    kFloat16,
  };
  Kind kind = Kind::kNone;
  int32_t scale = 0, precision = 0;  // kDecimal
  bool adjusted_to_utc = false;       // kTime, kTimestamp
  TimeUnit unit = TimeUnit::kMicros;  // kTime, kTimestamp
  int8_t bit_width = 0;               // kInteger
  bool is_signed = true;              // kInteger
};

struct SchemaElement {
  std::optional<PhysicalType> type;
  int32_t type_length = 0;
  std::optional<Repetition> repetition;
  std::string name;
  int32_t num_children = 0;
  ConvertedType converted_type = ConvertedType::kNone;
  int32_t scale = 0, precision = 0;
  std::optional<int32_t> field_id;
  LogicalType logical_type;
};

struct KeyValue {
  std::string key;
  std::optional<std::string> value;
};

struct Statistics {
  std::optional<std::string> max, min;              // Deprecated signed-order fields.
  std::optional<int64_t> null_count, distinct_count;
  std::optional<std::string> max_value, min_value;  // Ordered by the column's sort order.
};

struct PageEncodingStats {
  PageType page_type = PageType::kDataPage;
  Encoding encoding = Encoding::kPlain;
  int32_t count = 0;
};

struct ColumnMetaData {
  PhysicalType type = PhysicalType::kBoolean;
  std::vector<Encoding> encodings;
  std::vector<std::string> path_in_schema;
  Codec codec = Codec::kUncompressed;
  int64_t num_values = 0;
  int64_t total_uncompressed_size = 0;
  int64_t total_compressed_size = 0;
  std::vector<KeyValue> key_value_metadata;
  int64_t data_page_offset = 0;
  std::optional<int64_t> index_page_offset;
  std::optional<int64_t> dictionary_page_offset;
  std::optional<Statistics> statistics;
  std::vector<PageEncodingStats> encoding_stats;
  std::optional<int64_t> bloom_filter_offset;
  std::optional<int32_t> bloom_filter_length;
};

struct ColumnChunk {
  std::string file_path;
  int64_t file_offset = 0;
  std::optional<ColumnMetaData> meta_data;
  std::optional<int64_t> offset_index_offset;
  std::optional<int32_t> offset_index_length;
  std::optional<int64_t> column_index_offset;
  std::optional<int32_t> column_index_length;
};

struct RowGroup {
  std::vector<ColumnChunk> columns;
  int64_t total_byte_size = 0;
  int64_t num_rows = 0;
  std::optional<int64_t> file_offset;
  std::optional<int64_t> total_compressed_size;
  std::optional<int16_t> ordinal;
};

struct FileMetaData {
  int32_t version = 1;
  std::vector<SchemaElement> schema;
  int64_t num_rows = 0;
  std::vector<RowGroup> row_groups;
  std::vector<KeyValue> key_value_metadata;
  std::string created_by;
  int32_t column_orders = 0;  // How many TYPE_ORDER column orders were present.
};

struct DataPageHeader {
  int32_t num_values = 0;
  Encoding encoding = Encoding::kPlain;
  Encoding definition_level_encoding = Encoding::kRle;
  Encoding repetition_level_encoding = Encoding::kRle;
  std::optional<Statistics> statistics;
};

struct DictionaryPageHeader {
  int32_t num_values = 0;
  Encoding encoding = Encoding::kPlain;
  bool is_sorted = false;
};

struct DataPageHeaderV2 {
  int32_t num_values = 0;
  int32_t num_nulls = 0;
  int32_t num_rows = 0;
  Encoding encoding = Encoding::kPlain;
  int32_t definition_levels_byte_length = 0;
  int32_t repetition_levels_byte_length = 0;
  bool is_compressed = true;
  std::optional<Statistics> statistics;
};

struct PageHeader {
  PageType type = PageType::kDataPage;
  int32_t uncompressed_page_size = 0;
  int32_t compressed_page_size = 0;
  std::optional<int32_t> crc;
  std::optional<DataPageHeader> data_page_header;
  std::optional<DictionaryPageHeader> dictionary_page_header;
  std::optional<DataPageHeaderV2> data_page_header_v2;
};

enum class BoundaryOrder : int32_t { kUnordered = 0, kAscending = 1, kDescending = 2 };

struct ColumnIndex {
  std::vector<bool> null_pages;
  std::vector<std::string> min_values, max_values;
  BoundaryOrder boundary_order = BoundaryOrder::kUnordered;
  std::vector<int64_t> null_counts;
};

struct PageLocation {
  int64_t offset = 0;
  int32_t compressed_page_size = 0;
  int64_t first_row_index = 0;
};

struct OffsetIndex {
  std::vector<PageLocation> page_locations;
};

// The split-block bloom filter header (BLOCK algorithm, XXHASH, UNCOMPRESSED only).
struct BloomFilterHeader {
  int32_t num_bytes = 0;
};

// Decoders: `bytes` must hold exactly one message at its start; *consumed (when given) gets
// the message's length (page headers are followed by the page body).
Result<FileMetaData> DecodeFileMetaData(std::string_view bytes);
Result<PageHeader> DecodePageHeader(std::string_view bytes, size_t* consumed);
Result<ColumnIndex> DecodeColumnIndex(std::string_view bytes);
Result<OffsetIndex> DecodeOffsetIndex(std::string_view bytes);
Result<BloomFilterHeader> DecodeBloomFilterHeader(std::string_view bytes, size_t* consumed);

void EncodeFileMetaData(const FileMetaData& metadata, std::string* out);
void EncodePageHeader(const PageHeader& header, std::string* out);
void EncodeColumnIndex(const ColumnIndex& index, std::string* out);
void EncodeOffsetIndex(const OffsetIndex& index, std::string* out);
void EncodeBloomFilterHeader(const BloomFilterHeader& header, std::string* out);

std::string_view PhysicalTypeName(PhysicalType type);
std::string_view EncodingName(Encoding encoding);
std::string_view CodecName(Codec codec);

}  // namespace floe::parquet

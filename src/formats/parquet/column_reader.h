// Decodes one column chunk (all its pages) into its levels and its non-null values in dense
// form, already converted to the batch type (timestamps to microseconds, decimals to 128-bit,
// INT96 to timestamps, ...). Reads bytes it was given, not the file; every size, count and
// index from the file is checked before use. One thread per chunk.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "base/result.h"
#include "formats/column_batch.h"
#include "formats/parquet/metadata.h"
#include "formats/parquet/schema.h"

namespace floe::parquet {

struct ReaderOptions {
  int64_t max_page_bytes = 256 << 20;        // Refuse pages that claim to be larger.
  int64_t max_values_per_page = 64 << 20;    // Refuse pages that claim more values.
  bool verify_page_crc = true;
};

struct DecodedChunk {
  std::vector<int16_t> def, rep;  // Empty when the leaf's max level is 0.
  // ColumnChunkStream only: `def` was left empty because every level read is the leaf's
  // maximum (no value is null), as in most pages of optional columns.
  bool all_present = false;
  int64_t num_levels = 0;
  int64_t num_values = 0;         // Non-null values in `values`.
  formats::Buffer values;         // Dense batch-typed values (bytes for strings/binary).
  std::vector<int32_t> offsets;   // Strings/binary: num_values + 1 entries.
  // Strings/binary whose every value came from the chunk's dictionary: that dictionary and each
  // dense value's index in it (num_values entries); null otherwise.
  std::shared_ptr<const formats::ColumnVector> dictionary;
  std::vector<uint32_t> codes;
  // Page mode only: the strings were left in the dictionary (values and offsets are empty);
  // whoever copies them out reads them by code.
  bool codes_only = false;
};

// Reads a flat (unrepeated) column chunk a few rows at a time, decoding one page at a time,
// so a scan touches a page's worth of memory instead of a row group's. Owns the chunk bytes.
// One thread.
class ColumnChunkStream {
 public:
  ColumnChunkStream(const LeafColumn& leaf, const ColumnMetaData& meta, std::string bytes, const ReaderOptions& options);
  ~ColumnChunkStream();
  // Appends the next `rows` rows (levels and dense values) to `out`.
  Status Read(int64_t rows, DecodedChunk* out);
  // Steps over the next `rows` rows; whole data pages inside them are not even decompressed.
  Status Skip(int64_t rows);
  // Data pages decoded and stepped over so far.
  int64_t pages_decoded() const { return pages_decoded_; }
  int64_t pages_skipped() const { return pages_skipped_; }

 private:
  struct State;
  const LeafColumn& leaf_;
  std::unique_ptr<State> state_;
  int64_t pages_decoded_ = 0, pages_skipped_ = 0;
};

// Decodes the chunk whose bytes (starting at its first page) are `bytes`.
Status DecodeColumnChunk(const LeafColumn& leaf, const ColumnMetaData& meta, std::string_view bytes,
                         int64_t expected_rows, const ReaderOptions& options, DecodedChunk* out);

}  // namespace floe::parquet

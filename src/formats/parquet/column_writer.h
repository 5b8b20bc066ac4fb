// Encodes one leaf column of one row group: levels, values (dictionary with fallback to PLAIN,
// PLAIN, DELTA_BINARY_PACKED, RLE booleans), pages v1 or v2, compression, statistics and the
// page index entries. Created per row group by the FileWriter, which owns it; one thread.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "base/result.h"
#include "formats/parquet/level_shredder.h"
#include "formats/parquet/metadata.h"
#include "formats/parquet/schema.h"
#include "formats/parquet/statistics.h"
#include "formats/parquet/writer_options.h"

namespace floe::parquet {

// A finished column chunk: its pages (dictionary page first), each a page header followed by its
// body, to be written in order; and what the footer and the page index say about them. Offsets
// are relative to the chunk's first byte.
struct ChunkResult {
  std::vector<std::string> pages;
  ColumnMetaData meta;  // data_page_offset / dictionary_page_offset relative to the chunk.
  EncodedStats stats;
  ColumnIndex column_index;
  OffsetIndex offset_index;
  bool has_column_index = false;
  std::string bloom_filter;  // The filter's bitset (empty when none).
};

// Buffers a page is assembled in (levels, encoded values, the compressed body). Only one column
// closes a page at a time, so the FileWriter lends one set to all its column writers: wide
// tables would otherwise hold a few page-sized buffers per column.
struct PageBuffers {
  std::string levels, values, body;
};

class ColumnWriter {
 public:
  virtual ~ColumnWriter() = default;
  // Appends one slice of rows (levels shredded by the caller).
  virtual Status Write(const ShreddedLevels& levels) = 0;
  // Bytes buffered so far (encoded pages plus the open page), for row group sizing.
  virtual int64_t BufferedBytes() const = 0;
  virtual Result<ChunkResult> Finish() = 0;
};

// `buffers` must outlive the writer.
std::unique_ptr<ColumnWriter> MakeColumnWriter(const LeafColumn& leaf, const WriterOptions& options, bool bloom_filter,
                                               PageBuffers* buffers);

}  // namespace floe::parquet

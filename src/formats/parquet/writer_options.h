// Options of the Parquet writer. Plain values; copy freely.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "formats/parquet/metadata.h"

namespace floe::parquet {

struct WriterOptions {
  Codec codec = Codec::kZstd;
  int compression_level = 1;           // zstd 1..22 (1 as Arrow; fast), gzip 1..9, brotli 0..11.
  int64_t row_group_bytes = 128 << 20;  // Flush a row group when its buffered pages reach this,
  int64_t row_group_rows = 1 << 20;     // or when it holds this many rows (Arrow's default
                                        // max_row_group_length): readers parallelize by row
                                        // group, so a big file needs more than one.
  int64_t page_bytes = 1 << 20;         // Close a data page when its unencoded values reach this,
  int64_t page_values = 20000;          // or once it holds this many values (nulls included;
                                        // checked after each slice of rows, as parquet-mr and
                                        // Arrow do): a page of a few distinct values is tiny
                                        // encoded, but not its codes while it is being built.
  int64_t dictionary_bytes = 1 << 20;   // Fall back to PLAIN when a chunk's dictionary grows past this.
  bool dictionary = true;
  bool data_page_v2 = false;
  bool delta_integers = false;  // DELTA_BINARY_PACKED for non-dictionary int32/int64 columns.
  bool page_index = true;       // Write ColumnIndex and OffsetIndex.
  std::vector<int32_t> bloom_filter_field_ids;  // Leaves (by Iceberg field id) that get a bloom filter.
  double bloom_filter_fpp = 0.01;
  int iceberg_bound_truncate = 16;  // Iceberg's default truncate(16) metrics mode for strings.
  std::vector<KeyValue> key_value_metadata;
  std::string created_by = "floe version 0.1.0";
};

}  // namespace floe::parquet

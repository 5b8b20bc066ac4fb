// FileWriter: writes column batches as one Parquet file through an io::OutputStream, cutting
// row groups by size, and returns the metrics Iceberg records for a data file.
//
// Owned by its caller; one thread. Nothing is visible to readers until Close succeeds (the
// stream's contract); a writer destroyed without Close aborts the stream.
#pragma once

#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "base/result.h"
#include "formats/column_batch.h"
#include "formats/parquet/column_writer.h"
#include "formats/parquet/schema.h"
#include "formats/parquet/writer_options.h"
#include "io/object_store.h"

namespace floe::parquet {

// Iceberg's per-column metrics (by leaf field id) for a data file.
struct ColumnMetrics {
  int64_t column_size = 0;        // Compressed bytes of the column's chunks.
  int64_t value_count = 0;        // Values including nulls (leaf entries).
  int64_t null_value_count = 0;
  std::optional<int64_t> nan_value_count;  // Float and double columns.
  std::optional<std::string> lower_bound, upper_bound;  // Iceberg single-value serialization.
};

struct FileMetrics {
  int64_t record_count = 0;
  int64_t file_size = 0;
  std::map<int32_t, ColumnMetrics> columns;
  std::vector<int64_t> split_offsets;  // Row group starts.
};

class FileWriter {
 public:
  static Result<std::unique_ptr<FileWriter>> Open(std::unique_ptr<io::OutputStream> out,
                                                  const std::vector<formats::Field>& fields, WriterOptions options = {});
  ~FileWriter();

  const Schema& schema() const { return schema_; }
  // Appends the batch's rows; its fields must match the writer's (types, order, nullability).
  Status Write(const formats::ColumnBatch& batch);
  // Writes rows [first, first + count) of `batch` (inside it), without copying them out.
  Status WriteRows(const formats::ColumnBatch& batch, int64_t first, int64_t count);
  // Ends the current row group (a no-op when it is empty).
  Status FlushRowGroup();
  // Writes the page index, footer and magic, and closes the stream.
  Result<FileMetrics> Close();
  int64_t rows_written() const { return rows_; }

 private:
  FileWriter(std::unique_ptr<io::OutputStream> out, Schema schema, WriterOptions options);
  // Adds bytes at position_: gathered into pending_ and handed to the stream a megabyte at a
  // time (a file of many small pages is then a few writes, not one per page header and page).
  Status Append(std::string_view bytes);
  Status FlushPending();
  void StartRowGroup();

  std::unique_ptr<io::OutputStream> out_;
  Schema schema_;
  WriterOptions options_;
  int64_t position_ = 0;
  std::string pending_;  // Bytes before position_ not yet given to out_.
  int64_t rows_ = 0;
  int64_t row_group_rows_ = 0;
  bool closed_ = false;
  PageBuffers page_buffers_;  // Declared before the writers that borrow it.
  std::vector<std::unique_ptr<ColumnWriter>> writers_;
  std::vector<bool> bloom_;
  ShreddedLevels shredded_;
  FileMetaData metadata_;
  struct PendingIndex {
    ColumnIndex column_index;
    OffsetIndex offset_index;
    bool has_column_index = false;
  };
  std::vector<std::vector<PendingIndex>> indexes_;  // [row group][leaf]
  std::vector<EncodedStats> file_stats_;            // Per leaf, merged over row groups.
  std::vector<ColumnMetrics> leaf_metrics_;
};

}  // namespace floe::parquet

// DataFileWriter: rows into new Parquet data files of a table as they come, fanned out by the
// default spec's partition (SplitByPartition) and cut at a target size, with Iceberg column
// metrics from the writer. Batch columns are matched to the current schema by field id, else by
// name; a schema column missing from a batch must be optional (written as null). The files are
// not committed: Finish returns them for an append or overwrite.
//
// Owned and used by one thread.
#pragma once

#include <map>
#include <memory>
#include <vector>

#include "formats/column_batch.h"
#include "formats/parquet/file_writer.h"
#include "iceberg/table.h"

namespace floe::iceberg {

struct DataWriteOptions {
  int64_t target_file_size_bytes = int64_t{512} << 20;  // write.target-file-size-bytes
  // Rows moved without change on a v3 table (compaction): every batch also carries `_row_id`
  // and `_last_updated_sequence_number` (by field id, iceberg/row_lineage.h), written after the
  // schema's columns so the rows keep their lineage in the new files.
  bool row_lineage = false;
};

class DataFileWriter {
 public:
  static Result<std::unique_ptr<DataFileWriter>> Open(Table& table, const DataWriteOptions& options = {});

  Status Write(const formats::ColumnBatch& batch);
  // Closes the open files; returns every file written.
  Result<std::vector<DataFile>> Finish();

 private:
  // One open output file of one partition.
  struct OpenFile {
    std::string location;
    std::unique_ptr<parquet::FileWriter> writer;
    int64_t written_bytes = 0;  // Estimated from the batches' in-memory sizes.
  };

  DataFileWriter(Table& table, std::vector<formats::Field> fields, TypePtr partition_type, int64_t target,
                 bool row_lineage)
      : table_(table),
        fields_(std::move(fields)),
        partition_type_(std::move(partition_type)),
        target_(target),
        row_lineage_(row_lineage) {}
  Result<OpenFile*> OpenFor(const std::vector<Literal>& partition);
  Status Close(const std::vector<Literal>& partition, OpenFile& file);
  // Writes `rows` (in the table's column order) to the partition's files, cutting a new file
  // whenever one reaches the target size.
  Status WriteRows(const std::vector<Literal>& partition, const formats::ColumnBatch& rows, int64_t bytes_per_row);

  Table& table_;
  std::vector<formats::Field> fields_;  // The current schema's, as batch fields (then the lineage fields).
  TypePtr partition_type_;
  int64_t target_;
  bool row_lineage_;
  std::map<std::vector<Literal>, OpenFile> open_;  // By partition.
  std::vector<DataFile> done_;
};

}  // namespace floe::iceberg

// UpsertBatch: one micro-batch of a keyed stream reduced to what it commits. For every key the
// batch touches, the last change wins: changes are numbered by their record's index in the
// batch, which within a Kafka partition is offset order (across partitions there is no order;
// docs/upserts.md). What remains is the winning rows, to write as data files, and every key
// touched, to write as equality deletes that hide the keys' older rows.
//
// Owned and used by one thread (the commit's).
#pragma once

#include <cstdint>
#include <string>
#include <unordered_map>
#include <utility>
#include <vector>

#include "base/result.h"
#include "formats/column_batch.h"
#include "iceberg/schema.h"

namespace floe::stream {

// A record that cannot be applied: its index in the batch and the reason (a dead letter).
using RecordError = std::pair<size_t, std::string>;

class UpsertBatch {
 public:
  // `key_ids` are the field ids of the key columns: top-level primitive columns of `schema`.
  static Result<UpsertBatch> Make(const iceberg::Schema& schema, std::vector<int32_t> key_ids);

  // Rows put by the records `record_of_row` (one per row), decoded with the table's columns.
  // A row whose key has a null column is reported in `bad` and takes no part.
  Status AddRows(formats::ColumnBatch rows, const std::vector<size_t>& record_of_row, std::vector<RecordError>* bad);
  // Keys deleted by the records `record_of_key`, as rows of the key columns alone.
  Status AddDeletes(formats::ColumnBatch keys, const std::vector<size_t>& record_of_key, std::vector<RecordError>* bad);

  size_t keys_touched() const { return latest_.size(); }
  // The winning rows (each added batch reduced to its winners; batches left empty are dropped).
  std::vector<formats::ColumnBatch> WinningRows() const;
  // One row of the key columns per key touched: the rows of the batch's equality delete file.
  std::vector<formats::ColumnBatch> TouchedKeys() const;

 private:
  struct Change {
    size_t record = 0;   // Index in the micro-batch: the later record wins.
    uint32_t batch = 0;  // Into rows_ or deletes_.
    uint32_t row = 0;
    bool is_delete = false;
  };
  UpsertBatch(const iceberg::Schema& schema, std::vector<int32_t> key_ids)
      : schema_(schema), key_ids_(std::move(key_ids)) {}

  // Adds the changes of `batch`, whose key columns are `key_columns`.
  Status AddChanges(const formats::ColumnBatch& batch, const std::vector<int>& key_columns,
                    const std::vector<size_t>& records, bool is_delete, uint32_t batch_index,
                    std::vector<RecordError>* bad);
  // The batch column holding each key column, by field id.
  Result<std::vector<int>> KeyColumns(const formats::ColumnBatch& batch) const;

  iceberg::Schema schema_;
  std::vector<int32_t> key_ids_;
  std::vector<formats::ColumnBatch> rows_;
  std::vector<std::vector<int>> row_key_columns_;  // Per rows_ batch.
  std::vector<formats::ColumnBatch> deletes_;
  std::vector<std::vector<int>> delete_key_columns_;  // Per deletes_ batch.
  // By key: the Appendix D binary form of each key value, each after its 4-byte length.
  std::unordered_map<std::string, Change> latest_;
};

}  // namespace floe::stream

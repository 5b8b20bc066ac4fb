// ChangeDecoder: the records of a keyed stream (`floe stream --mode upsert`) sorted into the
// changes they ask of the table, with the deleted keys decoded. The job's commit and fresh reads
// of keyed tables (sql/iceberg/log_tail.h) both read a topic's records through it, so a record
// means the same in the table and in a live query.
//
// Sorting reads each record with ChangeEventParser (docs/upserts.md): a row to put, whose JSON
// the caller decodes with the table's columns (the job on its decode lanes), or a key to delete,
// which DecodeDeletedKeys decodes into the key columns. Records that are neither are bad, with
// the reason (dead letters). Used by one thread at a time.
#pragma once

#include <memory>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "base/result.h"
#include "formats/column_batch.h"
#include "formats/json/epoch_unit.h"
#include "stream/source/change_event.h"

namespace floe::formats {
class JsonEventDecoder;
}

namespace floe::stream {

// One Kafka record's key and value, as views of bytes the caller keeps.
struct KeyedRecord {
  std::string_view key;
  bool key_null = false;
  std::string_view value;
  bool value_null = false;
};

// What a run of records asks, by record index (into the records given to Sort).
struct SortedChanges {
  std::vector<ChangeEvent> events;  // Each record's change (default for bad records).
  // Per record: the JSON of the row it puts, or nothing (a delete or a bad record). The views
  // point into `events` or the records' values: move SortedChanges, never copy it.
  std::vector<std::optional<std::string_view>> rows_json;
  std::vector<size_t> deletes;                          // Records that delete a key, ascending.
  std::vector<std::pair<size_t, std::string>> bad;      // Records that ask nothing readable.
};

// The keys deleted, as rows of the key columns, and each row's record index.
struct DeletedKeys {
  formats::ColumnBatch keys;
  std::vector<size_t> record_of_key;
};

class ChangeDecoder {
 public:
  // `key_fields`: the table's key columns, in key order (the batch fields a key decodes into).
  static Result<std::unique_ptr<ChangeDecoder>> Make(Envelope envelope, std::vector<formats::Field> key_fields,
                                                     formats::EpochUnit timestamp_unit);
  ~ChangeDecoder();

  SortedChanges Sort(std::span<const KeyedRecord> records);
  // Decodes the keys `changes.deletes` name; a key that does not decode adds its record to
  // `changes.bad`.
  Result<DeletedKeys> DecodeDeletedKeys(SortedChanges& changes);

 private:
  ChangeDecoder() = default;
  std::unique_ptr<ChangeEventParser> parser_;
  std::unique_ptr<formats::JsonEventDecoder> key_decoder_;
};

}  // namespace floe::stream

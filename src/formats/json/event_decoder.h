// JsonEventDecoder: turns JSON lines (one event object per line) into column batches for a set
// of batch fields (an Iceberg schema's, see iceberg_fields.h), matching keys to fields by name.
//
// Numbers and numeric strings fill numeric columns; timestamps are ISO-8601 strings or epoch
// numbers in the configured unit; nested objects fill structs, arrays fill lists, objects fill
// maps; a missing key is null and an unknown key is ignored. A line that cannot be decoded
// leaves no trace in the batch and is reported with its line number. Owned by one caller and
// used by one thread (the stream job's decode stage, `floe parquet write`).
#pragma once

#include <cstdint>
#include <map>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "base/result.h"
#include "formats/column_batch.h"
#include "formats/json/epoch_unit.h"

namespace floe::formats {

struct LineError {
  int64_t line = 0;  // 1-based line number in the input.
  std::string message;
};

class JsonEventDecoder {
 public:
  static Result<std::unique_ptr<JsonEventDecoder>> Make(std::vector<Field> fields, EpochUnit unit = EpochUnit::kMicros);
  ~JsonEventDecoder();

  const std::vector<Field>& fields() const;
  // Decodes the complete lines of `text` (a final line without '\n' counts too). `text` must be
  // followed by at least kPadding readable bytes (simdjson reads ahead); `first_line` numbers
  // the first line. Blank lines are skipped. Bad lines go to errors(), never stop decoding.
  // Returns how many lines `text` held.
  int64_t DecodeLines(std::string_view text, int64_t first_line);
  // Decodes one event (no padding needed: it is copied).
  Status DecodeOne(std::string_view json);

  int64_t buffered_rows() const;
  // The rows decoded since the last call; the decoder starts a fresh batch.
  ColumnBatch TakeBatch();
  const std::vector<LineError>& errors() const;
  void ClearErrors();

  // Lines are first tried on a fast path for events written plainly (plain_line_decoder.h),
  // which gives the same rows and hands every other line to the general path. Off, every line
  // takes the general path: tests compare the two.
  void set_fast_path(bool on);

  // Schema evolution (`floe stream --evolve`): when on, top-level keys the fields do not name,
  // with a string, integer, floating-point or boolean value, are noted with the type their
  // values suggest (integers widen to double when both appear; nulls, objects and arrays are
  // not noted). The rows still ignore them: the caller adds the columns and decodes again.
  void set_collect_unknown_fields(bool on);
  // The noted keys since the last call, by name; clears them.
  std::map<std::string, TypeId> TakeUnknownFields();

  static constexpr size_t kPadding = 64;

 private:
  JsonEventDecoder();
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

// Appends one Kafka record's value to `lines` as one line of DecodeLines' input, so that line
// numbers stay record numbers: JSON may hold a raw newline only as whitespace, so newlines become
// spaces; a null or blank value becomes `null`, which decodes to an error (a dead letter).
// The stream job and fresh reads of the log tail both build their input this way.
void AppendEventLine(std::string* lines, std::string_view value, bool is_null);

}  // namespace floe::formats

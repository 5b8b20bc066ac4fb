// AvroColumnDecoder: Avro datums of one writer schema decoded straight into the columns of a
// ColumnBatch whose fields are the reader's (a table's batch fields), with no value tree in
// between: the stream job's Avro path, where every record of a topic is one datum.
//
// The writer schema is resolved against the reader fields once, when the decoder is made
// (Avro specification, "Schema Resolution"): record fields match by name, fields only the
// writer has are skipped (and noted, for schema evolution), reader fields the writer lacks are
// null, and the promotions int->long->float->double, float->double and string<->bytes apply.
// On top of Avro's rules, logical types land in their Iceberg columns: date, time-millis/micros,
// timestamp-millis/micros/nanos (local or not), decimal on bytes or fixed (same scale), uuid on
// string or fixed(16), enums as strings. Writer unions pick their branch per datum; the null
// branch is a null slot (an error for a required column).
//
// A datum that cannot be decoded (truncated, a length or count the bytes left cannot hold,
// a bad union index, nesting deeper than kMaxDepth, bytes left over) is a Corruption naming the
// field and byte offset, and leaves the batch as it was before the datum. Owned by one thread.
#pragma once

#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "base/result.h"
#include "formats/avro/avro_schema.h"
#include "formats/column_batch.h"

namespace floe::avro {

struct ColumnStep;

class AvroColumnDecoder {
 public:
  static constexpr int kMaxDepth = 32;

  // InvalidArgument when `writer` is not a record or a field cannot be read as its column
  // (the message names the field and both types). `writer` must outlive the decoder.
  static Result<std::unique_ptr<AvroColumnDecoder>> Make(const AvroNode& writer, std::vector<formats::Field> fields);
  ~AvroColumnDecoder();

  // Decodes one datum (exactly the bytes of `datum`) into a new row of `batch`, whose fields
  // must be the ones the decoder was made with. On error the batch is unchanged.
  Status DecodeRow(std::string_view datum, formats::ColumnBatch& batch) const;

  // Top-level writer fields that no reader field names: what `--evolve` would add.
  const std::vector<const AvroField*>& unmatched_fields() const { return unmatched_; }
  const std::vector<formats::Field>& fields() const { return fields_; }

 private:
  AvroColumnDecoder() = default;

  std::vector<formats::Field> fields_;
  std::unique_ptr<ColumnStep> root_;
  std::vector<const AvroField*> unmatched_;
};

// Makes room in the top-level columns of `batch` for `rows` more rows, and `bytes` more bytes of
// string data spread over its string and binary columns, so that decoding a chunk of datums
// grows each buffer once instead of doubling its way up (each doubling a copy into fresh,
// page-faulting memory).
void ReserveRows(formats::ColumnBatch& batch, int64_t rows, size_t bytes);

// Cuts `column` back to its first `length` slots (children and buffers with it): how a datum
// that failed halfway is taken out again.
void TruncateColumn(formats::ColumnVector& column, int64_t length);

}  // namespace floe::avro

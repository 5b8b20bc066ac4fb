// ProtoColumnDecoder: Protobuf messages of one writer message type decoded straight into the
// columns of a ColumnBatch whose fields are the reader's (a table's batch fields): the stream
// job's Protobuf path, where every record of a topic is one message.
//
// The writer message is matched to the reader fields once, when the decoder is made: fields
// match by name (proto field names are column names); writer fields without a column are
// skipped (and noted, for schema evolution), columns without a writer field are null. A field
// lands in its column as:
//  - bool -> boolean; int32, sint32, sfixed32 -> int or long; int64, sint64, sfixed64, uint32,
//    fixed32 -> long; uint64, fixed64 -> long (a value above 2^63-1 fails the record);
//    float -> float or double; double -> double; string -> string; bytes -> binary;
//    enum -> string (the value's name; a number the enum does not name fails the record) or
//    int/long (its number);
//  - google.protobuf.Timestamp -> timestamp/timestamptz (micro- or nanoseconds);
//    google.protobuf.*Value wrappers -> their scalar's column, null when absent;
//  - other messages -> struct; repeated -> list; map<K, V> -> map.
// Absent fields follow the writer's presence: a proto3 scalar without `optional` is its zero
// value ("" / 0 / false / the enum's 0 value), a field with presence (proto2 optional, proto3
// `optional`, messages, oneof members other than the one set last) is null, a repeated field
// or map an empty list or map. A proto2 required field that is absent fails the record.
// As the wire format demands, fields may come in any order, a singular field seen twice keeps
// the last value (messages merge), repeated scalars may be packed or not, unknown fields are
// skipped, and the last oneof member set wins.
//
// A message that cannot be decoded (truncated, a wire type its field's type does not allow,
// invalid UTF-8 in a string, a map with a key twice) is a Corruption naming the field and byte
// offset, and leaves the batch as it was. Owned by one thread.
#pragma once

#include <memory>
#include <string_view>
#include <vector>

#include "base/result.h"
#include "formats/column_batch.h"
#include "formats/protobuf/proto_schema.h"

namespace floe::protobuf {

struct MessagePlan;

class ProtoColumnDecoder {
 public:
  static constexpr int kMaxDepth = 32;

  // InvalidArgument when a field cannot be read as its column (naming both types) or a
  // required column has no writer field. `writer` must outlive the decoder.
  static Result<std::unique_ptr<ProtoColumnDecoder>> Make(const ProtoMessage& writer, std::vector<formats::Field> fields);
  ~ProtoColumnDecoder();

  // Decodes one message (exactly the bytes of `message`) into a new row of `batch`, whose fields
  // must be the ones the decoder was made with. `base` is added to byte offsets in errors (the
  // message's place in the record). On error the batch is unchanged.
  Status DecodeRow(std::string_view message, formats::ColumnBatch& batch, size_t base = 0);

  // Top-level writer fields that no reader field names: what `--evolve` would add.
  const std::vector<const ProtoField*>& unmatched_fields() const { return unmatched_; }

 private:
  ProtoColumnDecoder() = default;

  std::vector<formats::Field> fields_;
  std::unique_ptr<MessagePlan> root_;
  std::vector<const ProtoField*> unmatched_;
};

}  // namespace floe::protobuf

// Fuzz target: bytes as one Protobuf message (a Confluent-framed record's payload after the
// message indexes) of a writer message with every kind of field the stream job maps, decoded
// straight into columns as the stream job does (protobuf::ProtoColumnDecoder). A bad message
// must be an error, never a crash, and must leave the batch as it was (every column as long as
// the batch, which it aborts if not).
#include <cstdint>
#include <cstdlib>
#include <memory>
#include <string>

#include "formats/protobuf/proto_column_decoder.h"

namespace {

using floe::formats::Field;
using floe::formats::Primitive;
using floe::formats::TypeId;

constexpr char kWriterSchema[] = R"(syntax = "proto3";
import "google/protobuf/timestamp.proto";
import "google/protobuf/wrappers.proto";
enum Kind { A = 0; B = 1; C = 2; }
message Event {
  message Loc { double lat = 1; bytes skipped = 2; optional string name = 3; }
  int64 id = 1;
  optional string name = 2;
  sint32 delta = 3;
  uint64 big = 4;
  fixed32 f32 = 5;
  float ratio = 6;
  bool flag = 7;
  Kind kind = 8;
  bytes payload = 9;
  repeated string tags = 10;
  repeated int64 counts = 11;
  map<string, int64> attrs = 12;
  Loc where = 13;
  repeated Loc stops = 14;
  google.protobuf.Timestamp at = 15;
  google.protobuf.Int64Value coupon = 16;
  oneof pay { string card = 17; int64 voucher = 18; }
  string unmapped = 19;
})";

std::vector<Field> ReaderFields() {
  auto column = [](std::string name, floe::formats::DataType type, bool nullable = true) {
    return Field{.name = std::move(name), .id = -1, .nullable = nullable, .type = std::move(type)};
  };
  auto loc = floe::formats::StructType({column("lat", Primitive(TypeId::kDouble)), column("name", Primitive(TypeId::kString))});
  return {column("id", Primitive(TypeId::kInt64), false),
          column("name", Primitive(TypeId::kString)),
          column("delta", Primitive(TypeId::kInt32)),
          column("big", Primitive(TypeId::kInt64)),
          column("f32", Primitive(TypeId::kInt64)),
          column("ratio", Primitive(TypeId::kDouble)),
          column("flag", Primitive(TypeId::kBoolean)),
          column("kind", Primitive(TypeId::kString)),
          column("payload", Primitive(TypeId::kBinary)),
          column("tags", floe::formats::ListType(column("element", Primitive(TypeId::kString), false))),
          column("counts", floe::formats::ListType(column("element", Primitive(TypeId::kInt64), false))),
          column("attrs", floe::formats::MapType(column("key", Primitive(TypeId::kString), false),
                                                 column("value", Primitive(TypeId::kInt64)))),
          column("where", loc),
          column("stops", floe::formats::ListType(column("element", loc))),
          column("at", Primitive(TypeId::kTimestampTz)),
          column("coupon", Primitive(TypeId::kInt64)),
          column("card", Primitive(TypeId::kString)),
          column("voucher", Primitive(TypeId::kInt64))};
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  static const floe::protobuf::ProtoSchema* schema = [] {
    auto parsed = floe::protobuf::ProtoSchema::Parse(kWriterSchema);
    if (!parsed) std::abort();
    return new floe::protobuf::ProtoSchema(std::move(*parsed));
  }();
  static const std::unique_ptr<floe::protobuf::ProtoColumnDecoder> decoder = [] {
    auto made = floe::protobuf::ProtoColumnDecoder::Make(*schema->messages()[0], ReaderFields());
    if (!made) std::abort();
    return std::move(*made);
  }();
  static floe::formats::ColumnBatch batch = floe::formats::MakeEmptyBatch(ReaderFields());
  if (batch.num_rows > 4096) batch = floe::formats::MakeEmptyBatch(ReaderFields());
  const int64_t before = batch.num_rows;
  auto decoded = decoder->DecodeRow(std::string_view(reinterpret_cast<const char*>(data), size), batch);
  if (batch.num_rows != before + (decoded ? 1 : 0)) std::abort();
  for (const auto& column : batch.columns) {
    if (column.length != batch.num_rows) std::abort();
  }
  return 0;
}

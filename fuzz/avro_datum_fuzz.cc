// Fuzz target: bytes as one Avro datum (the payload of a Confluent-framed record) of a writer
// schema with every type the stream job maps, decoded straight into columns as the stream job
// does (avro::AvroColumnDecoder). A bad datum must be an error, never a crash, and must leave
// the batch as it was (every column as long as the batch, which it aborts if not); a datum the
// column decoder takes must decode with the generic decoder too, using every byte.
#include <cstdint>
#include <cstdlib>
#include <memory>
#include <string>

#include "base/bytes.h"
#include "formats/avro/binary_encoding.h"
#include "formats/avro/column_decoder.h"

namespace {

using floe::formats::Field;
using floe::formats::Primitive;
using floe::formats::TypeId;

constexpr char kWriterSchema[] = R"({"type":"record","name":"e","fields":[
  {"name":"id","type":"long"},
  {"name":"name","type":["null","string"]},
  {"name":"day","type":{"type":"int","logicalType":"date"}},
  {"name":"at","type":["null",{"type":"long","logicalType":"timestamp-millis"}]},
  {"name":"price","type":{"type":"bytes","logicalType":"decimal","precision":12,"scale":2}},
  {"name":"uid","type":{"type":"string","logicalType":"uuid"}},
  {"name":"kind","type":{"type":"enum","name":"k","symbols":["A","B","C"]}},
  {"name":"ratio","type":"float"},
  {"name":"tags","type":{"type":"array","items":["null","string"]}},
  {"name":"attrs","type":{"type":"map","values":"long"}},
  {"name":"where","type":["null",{"type":"record","name":"loc","fields":[
     {"name":"lat","type":"double"},{"name":"skipped","type":"bytes"}]}]},
  {"name":"flag","type":"boolean"}]})";

std::vector<Field> ReaderFields() {
  auto column = [](std::string name, floe::formats::DataType type, bool nullable = true) {
    return Field{.name = std::move(name), .id = -1, .nullable = nullable, .type = std::move(type)};
  };
  return {column("id", Primitive(TypeId::kInt64), false),
          column("name", Primitive(TypeId::kString)),
          column("day", Primitive(TypeId::kDate)),
          column("at", Primitive(TypeId::kTimestampTz)),
          column("price", floe::formats::DecimalType(12, 2)),
          column("uid", Primitive(TypeId::kUuid)),
          column("kind", Primitive(TypeId::kString)),
          column("ratio", Primitive(TypeId::kDouble)),
          column("tags", floe::formats::ListType(column("element", Primitive(TypeId::kString)))),
          column("attrs", floe::formats::MapType(column("key", Primitive(TypeId::kString), false),
                                                 column("value", Primitive(TypeId::kInt64)))),
          column("where", floe::formats::StructType({column("lat", Primitive(TypeId::kDouble))})),
          column("flag", Primitive(TypeId::kBoolean))};
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  static const floe::avro::AvroSchema* schema = [] {
    auto parsed = floe::avro::AvroSchema::Parse(kWriterSchema);
    if (!parsed) std::abort();
    return new floe::avro::AvroSchema(std::move(*parsed));
  }();
  static const std::unique_ptr<floe::avro::AvroColumnDecoder> decoder = [] {
    auto made = floe::avro::AvroColumnDecoder::Make(schema->root(), ReaderFields());
    if (!made) std::abort();
    return std::move(*made);
  }();
  static floe::formats::ColumnBatch batch = floe::formats::MakeEmptyBatch(ReaderFields());
  if (batch.num_rows > 4096) batch = floe::formats::MakeEmptyBatch(ReaderFields());
  std::string_view datum(reinterpret_cast<const char*>(data), size);
  const int64_t before = batch.num_rows;
  auto decoded = decoder->DecodeRow(datum, batch);
  if (batch.num_rows != before + (decoded ? 1 : 0)) std::abort();
  for (const auto& column : batch.columns) {
    if (column.length != batch.num_rows) std::abort();
  }
  if (decoded) {
    floe::ByteReader reader(datum);
    auto generic = floe::avro::DecodeDatum(schema->root(), reader);
    if (!generic || !reader.empty()) std::abort();
  }
  return 0;
}

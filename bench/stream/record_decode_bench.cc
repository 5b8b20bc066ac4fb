// Decoding alone, the stream job's formats side by side (issue #26): 256 Ki order events from
// the generator, as their JSON values, as Confluent-framed Avro datums and as Confluent-framed
// Protobuf messages of the same events, decoded in chunks of 64 Ki records into the columns of
// shop.orders by the stream job's RecordDecoders (the Avro and Protobuf ones with their writer
// schemas already fetched, as after the first record of a batch). Items per second are records; `make bench` runs it from
// bench/stream.bench.sh.
#include <benchmark/benchmark.h>

#include <memory>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "base/clock.h"
#include "base/varint.h"
#include "formats/avro/binary_encoding.h"
#include "formats/json/iceberg_fields.h"
#include "generator/order_event.h"
#include "generator/order_event_generator.h"
#include "iceberg/schema_json.h"
#include "stream/source/confluent_frame.h"
#include "stream/source/record_decoder.h"
#include "stream/source/schema_registry_client.h"

namespace floe {
namespace {

constexpr size_t kEvents = 256 << 10;
constexpr size_t kChunk = 64 << 10;

constexpr char kOrderAvroSchema[] = R"({"type":"record","name":"OrderEvent","namespace":"shop","fields":[
  {"name":"event_id","type":"string"},
  {"name":"ts","type":{"type":"long","logicalType":"timestamp-millis"}},
  {"name":"type","type":"string"},
  {"name":"order_id","type":"long"},
  {"name":"customer_id","type":"long"},
  {"name":"region","type":"string"},
  {"name":"items","type":"int"},
  {"name":"amount","type":"double"},
  {"name":"currency","type":"string"},
  {"name":"coupon","type":["null","string"],"default":null}]})";

constexpr char kOrderProtoSchema[] = R"(syntax = "proto3";
package shop;
import "google/protobuf/timestamp.proto";
message OrderEvent {
  string event_id = 1;
  google.protobuf.Timestamp ts = 2;
  string type = 3;
  int64 order_id = 4;
  int64 customer_id = 5;
  string region = 6;
  int32 items = 7;
  double amount = 8;
  string currency = 9;
  optional string coupon = 10;
})";

// The Protobuf wire bytes of one OrderEvent (fields in number order, as serializers write them).
void AppendTag(std::string* out, int number, int wire) { varint::AppendUnsigned(out, static_cast<uint64_t>(number << 3 | wire)); }
void AppendText(std::string* out, int number, std::string_view text) {
  AppendTag(out, number, 2);
  varint::AppendUnsigned(out, text.size());
  out->append(text);
}
void AppendOrderProto(const generator::OrderEvent& e, std::string* out) {
  AppendText(out, 1, e.event_id);
  std::string ts;
  const int64_t seconds = e.ts_millis / 1000, nanos = e.ts_millis % 1000 * 1'000'000;
  AppendTag(&ts, 1, 0);
  varint::AppendUnsigned(&ts, static_cast<uint64_t>(seconds));
  if (nanos != 0) {
    AppendTag(&ts, 2, 0);
    varint::AppendUnsigned(&ts, static_cast<uint64_t>(nanos));
  }
  AppendText(out, 2, ts);
  AppendText(out, 3, generator::OrderEventTypeName(e.type));
  AppendTag(out, 4, 0);
  varint::AppendUnsigned(out, static_cast<uint64_t>(e.order_id));
  AppendTag(out, 5, 0);
  varint::AppendUnsigned(out, static_cast<uint64_t>(e.customer_id));
  AppendText(out, 6, e.region);
  AppendTag(out, 7, 0);
  varint::AppendUnsigned(out, static_cast<uint64_t>(static_cast<int64_t>(e.items)));
  AppendTag(out, 8, 1);
  out->append(reinterpret_cast<const char*>(&e.amount), 8);
  AppendText(out, 9, e.currency);
  if (e.coupon) AppendText(out, 10, *e.coupon);
}

// Values back to back in one buffer, as a Kafka fetch delivers them.
struct Values {
  std::string bytes;
  std::vector<std::pair<size_t, size_t>> at;  // Offset and size of each value.

  void Add(std::string_view value) {
    at.emplace_back(bytes.size(), value.size());
    bytes += value;
  }
};

struct Events {
  Values json;
  Values avro;      // Framed with schema id 1.
  Values protobuf;  // Framed with schema id 2 and the message indexes [0].
};

const Events& OrderEvents() {
  static const Events events = [] {
    Events out;
    auto schema = avro::AvroSchema::Parse(kOrderAvroSchema);
    if (!schema) std::abort();
    ManualClock clock(1'700'000'000'000);
    generator::OrderEventGenerator generator({.seed = 3}, clock);
    for (size_t i = 0; i < kEvents; ++i) {
      generator::OrderEvent e = generator.NextEvent();
      std::string json;
      generator::AppendOrderEventJson(e, &json);
      out.json.Add(json);
      std::string framed("\0\0\0\0\1", 5);
      auto value = avro::AvroValue::Record(
          {avro::AvroValue::String(e.event_id), avro::AvroValue::Long(e.ts_millis),
           avro::AvroValue::String(std::string(generator::OrderEventTypeName(e.type))), avro::AvroValue::Long(e.order_id),
           avro::AvroValue::Long(e.customer_id), avro::AvroValue::String(std::string(e.region)),
           avro::AvroValue::Int(e.items), avro::AvroValue::Double(e.amount),
           avro::AvroValue::String(std::string(e.currency)),
           e.coupon ? avro::AvroValue::String(std::string(*e.coupon)) : avro::AvroValue::Null()});
      if (!avro::EncodeDatum(schema->root(), value, &framed)) std::abort();
      out.avro.Add(framed);
      std::string proto("\0\0\0\0\2\0", 6);
      AppendOrderProto(e, &proto);
      out.protobuf.Add(proto);
    }
    return out;
  }();
  return events;
}

std::vector<formats::Field> OrderFields() {
  auto schema = iceberg::SchemaFromJson(generator::OrdersSchemaJson());
  if (!schema) std::abort();
  auto fields = formats::BatchFieldsFromSchema(*schema);
  if (!fields) std::abort();
  return *fields;
}

void Decode(benchmark::State& state, stream::RecordDecoder& decoder, const Values& values) {
  std::vector<stream::EncodedRecord> records;
  for (const auto& [offset, size] : values.at) records.push_back({std::string_view(values.bytes).substr(offset, size), false});
  const auto bytes = static_cast<int64_t>(values.bytes.size());
  for (auto _ : state) {
    for (size_t start = 0; start < records.size(); start += kChunk) {
      stream::DecodedRecords out =
          decoder.Decode(std::span(records).subspan(start, std::min(kChunk, records.size() - start)));
      if (!out.failures.empty()) state.SkipWithError(out.failures[0].reason.c_str());
      benchmark::DoNotOptimize(out.batches.data());
    }
  }
  state.SetItemsProcessed(state.iterations() * static_cast<int64_t>(records.size()));
  state.SetBytesProcessed(state.iterations() * bytes);
}

void BM_DecodeOrdersJson(benchmark::State& state) {
  auto decoder = stream::MakeRecordDecoder({.format = stream::SourceFormat::kJson, .fields = OrderFields()});
  if (!decoder) std::abort();
  Decode(state, **decoder, OrderEvents().json);
}
BENCHMARK(BM_DecodeOrdersJson)->Unit(benchmark::kMillisecond);

void BM_DecodeOrdersAvro(benchmark::State& state) {
  // A registry that never answers: the writer's schema is put in the client's cache instead.
  auto registry = std::make_shared<stream::SchemaRegistryClient>(
      stream::SchemaRegistryClientOptions{.url = "http://127.0.0.1:1", .attempts = 1});
  if (!registry->Remember(1, kOrderAvroSchema)) std::abort();
  auto decoder = stream::MakeRecordDecoder({.format = stream::SourceFormat::kAvro, .fields = OrderFields(),
                                            .registry = registry});
  if (!decoder) std::abort();
  Decode(state, **decoder, OrderEvents().avro);
}
BENCHMARK(BM_DecodeOrdersAvro)->Unit(benchmark::kMillisecond);

void BM_DecodeOrdersProtobuf(benchmark::State& state) {
  auto registry = std::make_shared<stream::SchemaRegistryClient>(
      stream::SchemaRegistryClientOptions{.url = "http://127.0.0.1:1", .attempts = 1});
  if (!registry->Remember(2, kOrderProtoSchema, "PROTOBUF")) std::abort();
  auto decoder = stream::MakeRecordDecoder({.format = stream::SourceFormat::kProtobuf, .fields = OrderFields(),
                                            .registry = registry});
  if (!decoder) std::abort();
  Decode(state, **decoder, OrderEvents().protobuf);
}
BENCHMARK(BM_DecodeOrdersProtobuf)->Unit(benchmark::kMillisecond);

}  // namespace
}  // namespace floe

BENCHMARK_MAIN();

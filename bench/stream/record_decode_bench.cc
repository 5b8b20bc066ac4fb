// Decoding alone, the stream job's two formats side by side (issue #26): 256 Ki order events
// from the generator, once as their JSON values and once as Confluent-framed Avro datums of the
// same events, decoded in chunks of 64 Ki records into the columns of shop.orders by the
// stream job's RecordDecoders (the Avro one with its writer schema already fetched, as after
// the first record of a batch). Items per second are records; `make bench` runs it from
// bench/stream.bench.sh.
#include <benchmark/benchmark.h>

#include <memory>
#include <string_view>
#include <utility>
#include <string>
#include <vector>

#include "base/clock.h"
#include "formats/avro/binary_encoding.h"
#include "formats/json/iceberg_fields.h"
#include "generator/order_event.h"
#include "generator/order_event_generator.h"
#include "iceberg/schema_json.h"
#include "stream/confluent_frame.h"
#include "stream/record_decoder.h"
#include "stream/schema_registry_client.h"

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
  Values avro;  // Framed with schema id 1.
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

}  // namespace
}  // namespace floe

BENCHMARK_MAIN();

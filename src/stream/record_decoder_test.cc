#include "stream/record_decoder.h"

#include <atomic>

#include <fmt/format.h>
#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "formats/avro/binary_encoding.h"
#include "net/http_server.h"
#include "stream/confluent_frame.h"
#include "stream/kafka_columns.h"
#include "stream/schema_registry_client.h"

namespace floe::stream {
namespace {

using formats::Field;
using formats::TypeId;

constexpr char kOrderSchema[] = R"({"type":"record","name":"Order","fields":[
  {"name":"id","type":"long"},{"name":"note","type":["null","string"]}]})";

std::vector<Field> OrderFields() {
  return {Field{.name = "id", .id = 1, .nullable = false, .type = formats::Primitive(TypeId::kInt64)},
          Field{.name = "note", .id = 2, .nullable = true, .type = formats::Primitive(TypeId::kString)}};
}

std::string Framed(int32_t id, std::string_view datum) {
  std::string out(1, '\0');
  for (int shift = 24; shift >= 0; shift -= 8) out += static_cast<char>((static_cast<uint32_t>(id) >> shift) & 0xff);
  return out + std::string(datum);
}

std::string OrderDatum(int64_t id, const char* note) {
  auto schema = avro::AvroSchema::Parse(kOrderSchema);
  std::string out;
  Status st = avro::EncodeDatum(schema->root(),
                                avro::AvroValue::Record({avro::AvroValue::Long(id),
                                                         note ? avro::AvroValue::String(note) : avro::AvroValue::Null()}),
                                &out);
  EXPECT_TRUE(st.has_value());
  return out;
}

// A registry that knows schema 7 (the orders) and 8 (a schema that does not parse), and
// answers 404 with Confluent's error body for any other id; counts the requests it serves.
class StubRegistry {
 public:
  StubRegistry() {
    net::HttpRouter router;
    (void)router.Add("GET", "/schemas/ids/{id}", [this](net::HttpRequest& request) {
      ++requests;
      const std::string id = request.path_params["id"];
      if (id == "7") return net::HttpResponse::Json(200, nlohmann::json({{"schema", kOrderSchema}}).dump());
      if (id == "8") return net::HttpResponse::Json(200, nlohmann::json({{"schema", "{\"type\":\"nope\"}"}}).dump());
      return net::HttpResponse::Json(404, R"({"error_code":40403,"message":"Schema not found"})");
    });
    server_ = std::make_unique<net::HttpServer>(net::HttpServerOptions{}, std::move(router));
    Status st = server_->Start();
    EXPECT_TRUE(st.has_value());
    url = fmt::format("http://127.0.0.1:{}", server_->port());
  }

  std::string url;
  std::atomic<int> requests = 0;

 private:
  std::unique_ptr<net::HttpServer> server_;
};

std::vector<EncodedRecord> Records(const std::vector<std::string>& values) {
  std::vector<EncodedRecord> out;
  for (const std::string& v : values) out.push_back({v, false});
  return out;
}

TEST(ConfluentFrame, ParsesTheHeaderAndRefusesOthers) {
  std::string framed = Framed(258, "xyz");  // The frame's payload views these bytes.
  auto frame = ParseConfluentFrame(framed);
  ASSERT_TRUE(frame.has_value());
  EXPECT_EQ(frame->schema_id, 258);
  EXPECT_EQ(frame->payload, "xyz");
  EXPECT_FALSE(ParseConfluentFrame("").has_value());
  auto magic = ParseConfluentFrame(std::string("\x01\x00\x00\x00\x07", 5));
  ASSERT_FALSE(magic.has_value());
  EXPECT_NE(magic.error().message().find("magic byte 1"), std::string::npos);
  EXPECT_FALSE(ParseConfluentFrame(std::string("\x00\x00", 2)).has_value());
  EXPECT_FALSE(LooksConfluentFramed("{\"id\":1}"));
}

TEST(RecordDecoder, AvroThroughARegistryWithEveryFailureNamed) {
  StubRegistry registry;
  auto client = std::make_shared<SchemaRegistryClient>(
      SchemaRegistryClientOptions{.url = registry.url, .first_pause = std::chrono::milliseconds(1)});
  auto decoder = MakeRecordDecoder({.format = SourceFormat::kAvro, .fields = OrderFields(), .registry = client});
  ASSERT_TRUE(decoder.has_value());
  std::string good = Framed(7, OrderDatum(1, "")), other = Framed(7, OrderDatum(2, nullptr));
  std::vector<std::string> values = {good,
                                     Framed(99, OrderDatum(3, "x")),           // unknown id
                                     good.substr(0, good.size() - 1),          // truncated
                                     "\x01" + good.substr(1),                  // magic byte 1
                                     Framed(8, OrderDatum(4, "y")),            // does not parse
                                     other};
  DecodedRecords out = (*decoder)->Decode(Records(values));
  ASSERT_EQ(out.batches.size(), 1u);
  const formats::ColumnBatch& rows = out.batches[0];
  ASSERT_EQ(rows.num_rows, 2);
  EXPECT_EQ(rows.columns[0].Data<int64_t>()[1], 2);
  EXPECT_TRUE(rows.columns[1].IsValid(0));
  EXPECT_EQ(rows.columns[1].StringAt(0), "");
  EXPECT_FALSE(rows.columns[1].IsValid(1));
  ASSERT_EQ(out.failures.size(), 4u);
  EXPECT_EQ(out.failures[0].index, 1u);
  EXPECT_NE(out.failures[0].reason.find("schema id 99 is unknown"), std::string::npos) << out.failures[0].reason;
  EXPECT_NE(out.failures[1].reason.find("column 'note' at byte"), std::string::npos) << out.failures[1].reason;
  EXPECT_NE(out.failures[2].reason.find("magic byte 1"), std::string::npos) << out.failures[2].reason;
  EXPECT_NE(out.failures[3].reason.find("schema id 8 does not parse"), std::string::npos) << out.failures[3].reason;
  // Schema 7 is asked for once; the cache answers from then on, in this decoder and the next.
  const int asked = registry.requests.load();
  auto second = MakeRecordDecoder({.format = SourceFormat::kAvro, .fields = OrderFields(), .registry = client});
  ASSERT_TRUE(second.has_value());
  EXPECT_EQ((*second)->Decode(Records({good, good})).batches[0].num_rows, 2);
  EXPECT_EQ(registry.requests.load(), asked);
}

TEST(RecordDecoder, UnreachableRegistryIsADeadLetterNotAStop) {
  auto client = std::make_shared<SchemaRegistryClient>(SchemaRegistryClientOptions{
      .url = "http://127.0.0.1:1", .attempts = 2, .first_pause = std::chrono::milliseconds(1)});
  auto decoder = MakeRecordDecoder({.format = SourceFormat::kAvro, .fields = OrderFields(), .registry = client});
  ASSERT_TRUE(decoder.has_value());
  DecodedRecords out = (*decoder)->Decode(Records({Framed(7, OrderDatum(1, "a")), Framed(7, OrderDatum(2, "b"))}));
  ASSERT_EQ(out.failures.size(), 2u);
  EXPECT_NE(out.failures[0].reason.find("unreachable after 2 attempts"), std::string::npos) << out.failures[0].reason;
  EXPECT_EQ(out.batches[0].num_rows, 0);
}

TEST(RecordDecoder, AutoTellsJsonFromFramedPerRecord) {
  StubRegistry registry;
  auto client = std::make_shared<SchemaRegistryClient>(SchemaRegistryClientOptions{.url = registry.url});
  auto decoder = MakeRecordDecoder({.format = SourceFormat::kAuto, .fields = OrderFields(), .registry = client});
  ASSERT_TRUE(decoder.has_value());
  DecodedRecords out = (*decoder)->Decode(Records({R"({"id":1,"note":"json"})", Framed(7, OrderDatum(2, "avro")),
                                                   Framed(7, OrderDatum(3, nullptr)), "not json", R"({"id":5})"}));
  ASSERT_EQ(out.failures.size(), 1u);
  EXPECT_EQ(out.failures[0].index, 3u);
  std::vector<int64_t> ids;
  for (const formats::ColumnBatch& b : out.batches) {
    for (int64_t r = 0; r < b.num_rows; ++r) ids.push_back(b.columns[0].Data<int64_t>()[r]);
  }
  EXPECT_EQ(ids, (std::vector<int64_t>{1, 2, 3, 5}));
}

TEST(RecordDecoder, AvroEvolveNotesNewWriterFields) {
  // Only the `id` column: the writer's `note` is new to the table.
  std::vector<Field> fields = {OrderFields()[0]};
  StubRegistry registry;
  auto known = std::make_shared<SchemaRegistryClient>(SchemaRegistryClientOptions{.url = registry.url});
  auto decoder = MakeRecordDecoder({.format = SourceFormat::kAvro, .fields = fields, .registry = known});
  ASSERT_TRUE(decoder.has_value());
  (*decoder)->set_collect_unknown_fields(true);
  DecodedRecords out = (*decoder)->Decode(Records({Framed(7, OrderDatum(1, "n"))}));
  EXPECT_EQ(out.batches[0].num_rows, 1);
  auto unknown = (*decoder)->TakeUnknownFields();
  ASSERT_EQ(unknown.size(), 1u);
  EXPECT_EQ(unknown.begin()->first, "note");
  EXPECT_EQ(unknown.begin()->second->ToString(), "string");
}

TEST(KafkaColumns, FilledFromTheRecordsInTableOrder) {
  std::vector<Field> table = OrderFields();
  iceberg::Schema schema(0, {iceberg::NestedField{.id = 1, .name = "id", .required = true,
                                                  .type = iceberg::Type::Primitive(iceberg::TypeId::kLong)}});
  std::vector<iceberg::NestedField> added = MissingKafkaColumns(schema);
  ASSERT_EQ(added.size(), 5u);
  EXPECT_EQ(added[0].id, 2);
  EXPECT_EQ(added[4].name, "_key");
  table.insert(table.begin() + 1, Field{.name = "_offset", .id = 9, .type = formats::Primitive(TypeId::kInt64)});
  table.push_back(Field{.name = "_key", .id = 10, .type = formats::Primitive(TypeId::kBinary)});
  formats::ColumnBatch decoded = formats::MakeEmptyBatch(DecodedFields(table));
  ASSERT_EQ(decoded.columns.size(), 2u);
  decoded.columns[0].Append<int64_t>(1);
  decoded.columns[1].AppendString("n");
  decoded.num_rows = 1;
  auto rows = WithKafkaColumns(std::move(decoded), table, "orders",
                               {KafkaRecordMeta{.partition = 0, .offset = 42, .key = "k", .key_null = false}});
  ASSERT_TRUE(rows.has_value()) << rows.error().ToString();
  ASSERT_EQ(rows->columns.size(), 4u);
  EXPECT_EQ(rows->columns[1].Data<int64_t>()[0], 42);
  EXPECT_EQ(rows->columns[2].StringAt(0), "n");
  EXPECT_EQ(rows->columns[3].StringAt(0), "k");
}

}  // namespace
}  // namespace floe::stream

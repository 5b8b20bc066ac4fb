#include "stream/source/record_decoder.h"

#include <fmt/format.h>
#include <gtest/gtest.h>

#include <atomic>
#include <cstring>
#include <nlohmann/json.hpp>

#include "base/varint.h"
#include "formats/avro/binary_encoding.h"
#include "net/http_server.h"
#include "stream/source/confluent_frame.h"
#include "stream/source/kafka_columns.h"
#include "stream/source/schema_registry_client.h"

namespace floe::stream {
namespace {

using formats::Field;
using formats::TypeId;

constexpr char kOrderSchema[] = R"({"type":"record","name":"Order","fields":[
  {"name":"id","type":"long"},{"name":"note","type":["null","string"]}]})";

// The orders as Protobuf: message 0 (Order) has the columns' fields; message 1 (Other) does not
// fit them (its `id` is a string).
constexpr char kOrderProto[] = R"(syntax = "proto3"; package shop;
message Order { int64 id = 1; optional string note = 2; int32 extra = 3; }
message Other { string id = 1; })";

// An order whose total is a message of another registered file, imported by its reference.
constexpr char kMoneyProto[] = R"(syntax = "proto3"; package money;
message Money { string currency = 1; int64 units = 2; })";
constexpr char kOrderImportingMoney[] = R"(syntax = "proto3"; package shop; import "money.proto";
message Order { int64 id = 1; optional string note = 2; money.Money total = 3; })";

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
      if (id == "10") {
        return net::HttpResponse::Json(200, nlohmann::json({{"schemaType", "PROTOBUF"}, {"schema", kOrderProto}}).dump());
      }
      if (id == "11") {
        return net::HttpResponse::Json(200, nlohmann::json({{"schemaType", "JSON"}, {"schema", R"({"type":"object"})"}}).dump());
      }
      if (id == "12") {
        return net::HttpResponse::Json(200, nlohmann::json({{"schemaType", "PROTOBUF"}, {"schema", "message {"}}).dump());
      }
      // Schemas with Confluent's schema references (subject and version of the schemas that
      // define the named types they use).
      using nlohmann::json;
      auto ref = [](const char* subject, int version) {
        return json({{"name", subject}, {"subject", subject}, {"version", version}});
      };
      if (id == "20") {
        return net::HttpResponse::Json(200, json({{"schema", R"({"type":"record","name":"M","fields":[
            {"name":"x","type":"A"},{"name":"y","type":"B"}]})"},
                                                  {"references", {ref("b", 1), ref("a", 1)}}})
                                                .dump());
      }
      if (id == "21")
        return net::HttpResponse::Json(200, json({{"schema", R"("C1")"}, {"references", {ref("c1", 1)}}}).dump());
      if (id == "22")
        return net::HttpResponse::Json(200, json({{"schema", "\"long\""}, {"references", {ref("gone", 3)}}}).dump());
      if (id == "23")
        return net::HttpResponse::Json(200,
                                       json({{"schema", "\"long\""}, {"references", {{{"subject", "a"}}}}}).dump());
      if (id == "24") {
        return net::HttpResponse::Json(
            200, json({{"schemaType", "PROTOBUF"}, {"schema", kOrderProto}, {"references", {ref("a", 1)}}}).dump());
      }
      if (id == "25")
        return net::HttpResponse::Json(200, json({{"schema", "\"long\""}, {"references", {ref("proto", 1)}}}).dump());
      if (id == "26")
        return net::HttpResponse::Json(200, json({{"schema", "\"long\""}, {"references", {ref("deep", 1)}}}).dump());
      if (id == "27") return net::HttpResponse::Json(200, json({{"schema", "\"long\""}, {"references", "a"}}).dump());
      // Protobuf and JSON Schema references: the reference's name is the imported file or the
      // `$ref` target.
      auto named = [](const char* name, const char* subject, int version) {
        return json({{"name", name}, {"subject", subject}, {"version", version}});
      };
      auto typed = [](const char* type, const char* schema, json references) {
        return net::HttpResponse::Json(
            200, json({{"schemaType", type}, {"schema", schema}, {"references", std::move(references)}}).dump());
      };
      if (id == "30") return typed("PROTOBUF", kOrderImportingMoney, {named("money.proto", "money", 1)});
      if (id == "31") return typed("PROTOBUF", kOrderImportingMoney, {named("money.proto", "gone", 1)});
      if (id == "32") return typed("PROTOBUF", kOrderImportingMoney, {named("cash.proto", "money", 1)});
      if (id == "33") return typed("PROTOBUF", kOrderImportingMoney, {named("money.proto", "cyc-b", 1)});
      if (id == "35") return typed("PROTOBUF", kOrderImportingMoney, {{{"subject", "money"}, {"version", 1}}});
      if (id == "36")
        return typed("JSON", R"({"properties":{"a":{"$ref":"addr.json#/properties/city"}}})",
                     {named("addr.json", "addr", 1)});
      if (id == "37")
        return typed("JSON", R"({"properties":{"a":{"$ref":"address.json"}}})", {named("addr.json", "addr", 1)});
      if (id == "38") return typed("JSON", R"({"$ref":"addr.json"})", {named("addr.json", "money", 1)});
      return net::HttpResponse::Json(404, R"({"error_code":40403,"message":"Schema not found"})");
    });
    (void)router.Add("GET", "/subjects/{subject}/versions/{version}", [this](net::HttpRequest& request) {
      ++requests;
      using nlohmann::json;
      const std::string subject = request.path_params["subject"];
      const int version = std::stoi(request.path_params["version"]);
      auto ref = [](const char* s, int v) { return json({{"name", s}, {"subject", s}, {"version", v}}); };
      json body;
      if (subject == "a" && version == 1) {
        body = {{"schema", R"({"type":"record","name":"A","fields":[{"name":"b","type":"B"}]})"},
                {"references", {ref("b", 1)}}};
      } else if (subject == "b" && version == 1) {
        body = {{"schema", R"({"type":"enum","name":"B","symbols":["P","Q"]})"}};
      } else if (subject == "c1") {
        body = {{"schema", R"({"type":"record","name":"C1","fields":[{"name":"c","type":"C2"}]})"},
                {"references", {ref("c2", 1)}}};
      } else if (subject == "c2") {
        body = {{"schema", R"({"type":"record","name":"C2","fields":[{"name":"c","type":["null","C1"]}]})"},
                {"references", {ref("c1", 1)}}};
      } else if (subject == "proto") {
        body = {{"schemaType", "PROTOBUF"}, {"schema", kOrderProto}};
      } else if (subject == "money" && version == 1) {
        body = {{"schemaType", "PROTOBUF"}, {"schema", kMoneyProto}};
      } else if (subject == "addr" && version == 1) {
        body = {{"schemaType", "JSON"}, {"schema", R"({"type":"object","properties":{"city":{"type":"string"}}})"}};
      } else if (subject == "cyc-b" && version == 1) {
        // A cycle through "latest" (-1), the only way one can be registered: cyc-b 1 -> cyc-a
        // latest = 2 -> cyc-b 1.
        body = {{"schemaType", "PROTOBUF"},
                {"schema", kMoneyProto},
                {"references", {json({{"name", "a.proto"}, {"subject", "cyc-a"}, {"version", -1}})}}};
      } else if (subject == "cyc-a" && version == -1) {
        body = {{"schemaType", "PROTOBUF"},
                {"schema", kMoneyProto},
                {"version", 2},
                {"references", {json({{"name", "b.proto"}, {"subject", "cyc-b"}, {"version", 1}})}}};
      } else if (subject == "deep") {
        body = {{"schema", "\"long\""},
                {"references", {json({{"name", "d"}, {"subject", "deep"}, {"version", version + 1}})}}};
      } else {
        return net::HttpResponse::Json(404, R"({"error_code":40401,"message":"Subject not found"})");
      }
      return net::HttpResponse::Json(200, body.dump());
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

TEST(SchemaRegistryClient, AvroReferencesResolvedTheirsFirstEachOnce) {
  StubRegistry registry;
  SchemaRegistryClient client({.url = registry.url, .first_pause = std::chrono::milliseconds(1)});
  // M names A and B; A names B too: B is fetched once and defined before A.
  auto m = client.SchemaById(20);
  ASSERT_TRUE(m) << m.error().message();
  ASSERT_TRUE((*m)->avro);
  const avro::AvroNode& root = (*m)->avro->root();
  ASSERT_EQ(root.fields.size(), 2u);
  EXPECT_EQ(root.fields[0].type->name, "A");
  EXPECT_EQ(root.fields[0].type->fields[0].type, root.fields[1].type);
  EXPECT_EQ(root.fields[1].type->type, avro::AvroType::kEnum);
  EXPECT_EQ(registry.requests.load(), 3);  // The id, b, a.

  auto message = [&](int32_t id) {
    auto schema = client.SchemaById(id);
    return schema ? std::string("(parsed)") : schema.error().message();
  };
  // Two subjects referencing each other: each read once, then refused as it does not parse.
  EXPECT_EQ(message(21),
            "the reference to subject 'c2' version 1 of the reference to subject 'c1' version 1 of schema id 21: "
            "schema references form a cycle: subject 'c1' version 1 -> subject 'c2' version 1 -> subject 'c1' "
            "version 1");
  EXPECT_EQ(client.SchemaById(21).error().kind(), ErrorKind::kCorruption);
  EXPECT_EQ(
      message(22).rfind("the reference to subject 'gone' version 3 of schema id 22 is unknown to the registry", 0), 0u)
      << message(22);
  EXPECT_EQ(client.SchemaById(22).error().kind(), ErrorKind::kNotFound);
  EXPECT_EQ(message(23), "schema id 23: a schema reference without a string \"subject\" and an integer \"version\"");
  EXPECT_EQ(message(24), "the reference to subject 'a' version 1 of schema id 24 is a AVRO schema, not PROTOBUF");
  EXPECT_EQ(message(25), "the reference to subject 'proto' version 1 of schema id 25 is a PROTOBUF schema, not AVRO");
  EXPECT_NE(message(26).find("schema references nested deeper than 32"), std::string::npos) << message(26);
  EXPECT_EQ(message(27), "schema id 27: \"references\" is not a list");
}

TEST(SchemaRegistryClient, ProtobufAndJsonSchemaReferences) {
  StubRegistry registry;
  SchemaRegistryClient client({.url = registry.url, .first_pause = std::chrono::milliseconds(1)});
  auto order = client.SchemaById(30);
  ASSERT_TRUE(order) << order.error().message();
  ASSERT_TRUE((*order)->protobuf);
  const protobuf::ProtoMessage* total = (*order)->protobuf->FindMessage("shop.Order")->FieldByName("total")->message;
  ASSERT_NE(total, nullptr);
  EXPECT_EQ(total->full_name, "money.Money");
  EXPECT_EQ(total->FieldByNumber(2)->type, protobuf::ProtoType::kInt64);
  auto json_schema = client.SchemaById(36);
  ASSERT_TRUE(json_schema) << json_schema.error().message();
  EXPECT_EQ((*json_schema)->schema_type, "JSON");

  auto message = [&](int32_t id) {
    auto schema = client.SchemaById(id);
    return schema ? std::string("(parsed)") : schema.error().message();
  };
  EXPECT_EQ(
      message(31).rfind("the reference to subject 'gone' version 1 of schema id 31 is unknown to the registry", 0), 0u)
      << message(31);
  EXPECT_EQ(client.SchemaById(31).error().kind(), ErrorKind::kNotFound);
  EXPECT_EQ(message(32),
            "schema id 32 does not parse as Protobuf with its 1 referenced file(s): import \"money.proto\": no schema "
            "reference (or file imported before it) has that name");
  EXPECT_EQ(message(33),
            "the reference to subject 'cyc-a' version -1 of the reference to subject 'cyc-b' version 1 of schema id "
            "33: schema references form a cycle: subject 'cyc-b' version 1 -> subject 'cyc-a' version 2 -> subject "
            "'cyc-b' version 1");
  EXPECT_EQ(message(35), "schema id 35: a PROTOBUF schema reference without a string \"name\"");
  EXPECT_EQ(message(37),
            "schema id 37: the schema: \"$ref\": \"address.json\" at /properties/a/$ref names no schema reference "
            "(references: 'addr.json')");
  EXPECT_EQ(message(38), "the reference to subject 'money' version 1 of schema id 38 is a PROTOBUF schema, not JSON");
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

// A Protobuf Order framed with its message indexes: `indexes` as on the wire.
std::string ProtoOrder(int32_t id, std::string_view indexes, int64_t order_id, const char* note) {
  std::string message;
  varint::AppendUnsigned(&message, (1 << 3) | 0);
  varint::AppendUnsigned(&message, static_cast<uint64_t>(order_id));
  if (note != nullptr) {
    varint::AppendUnsigned(&message, (2 << 3) | 2);
    varint::AppendUnsigned(&message, strlen(note));
    message += note;
  }
  return Framed(id, std::string(indexes) + message);
}

TEST(ConfluentFrame, MessageIndexes) {
  auto first = ParseMessageIndexes(std::string("\0rest", 5));
  ASSERT_TRUE(first.has_value());
  EXPECT_EQ(first->indexes, std::vector<int32_t>{0});
  EXPECT_EQ(first->size, 1u);
  auto path = ParseMessageIndexes(std::string("\x04\x02\x06", 3));  // Zigzag: count 2, then 1, 3.
  ASSERT_TRUE(path.has_value());
  EXPECT_EQ(path->indexes, (std::vector<int32_t>{1, 3}));
  EXPECT_EQ(path->size, 3u);
  EXPECT_FALSE(ParseMessageIndexes("").has_value());
  auto truncated = ParseMessageIndexes("\x04\x02");
  ASSERT_FALSE(truncated.has_value());
  EXPECT_NE(truncated.error().message().find("truncated index at byte 2"), std::string::npos) << truncated.error().message();
  auto negative = ParseMessageIndexes("\x01");
  ASSERT_FALSE(negative.has_value());
  EXPECT_NE(negative.error().message().find("count -1"), std::string::npos) << negative.error().message();
  auto huge = ParseMessageIndexes("\xfe\xff\xff\xff\x0f");
  ASSERT_FALSE(huge.has_value());
  EXPECT_NE(huge.error().message().find("more than 64"), std::string::npos) << huge.error().message();
}

TEST(RecordDecoder, ProtobufThroughARegistryWithEveryFailureNamed) {
  StubRegistry registry;
  auto client = std::make_shared<SchemaRegistryClient>(
      SchemaRegistryClientOptions{.url = registry.url, .first_pause = std::chrono::milliseconds(1)});
  auto decoder = MakeRecordDecoder({.format = SourceFormat::kProtobuf, .fields = OrderFields(), .registry = client});
  ASSERT_TRUE(decoder.has_value());
  std::string good = ProtoOrder(10, std::string(1, '\0'), 1, "");
  std::vector<std::string> values = {good,
                                     ProtoOrder(10, std::string("\x02\x00", 2), 2, nullptr),  // [0] spelled out
                                     ProtoOrder(99, std::string(1, '\0'), 3, "x"),  // unknown id
                                     good.substr(0, good.size() - 1),                // truncated
                                     "\x01" + good.substr(1),                        // magic byte 1
                                     ProtoOrder(12, std::string(1, '\0'), 4, "y"),   // does not parse
                                     ProtoOrder(7, std::string(1, '\0'), 5, "z"),    // an Avro schema
                                     ProtoOrder(10, "\x02\x02", 6, nullptr),        // [1]: Other
                                     ProtoOrder(10, "\x02\x04", 7, nullptr),        // [2]: no such message
                                     Framed(10, std::string("\x04\x00", 2)),                         // indexes cut short
                                     ProtoOrder(10, std::string(1, '\0'), 8, "last")};
  DecodedRecords out = (*decoder)->Decode(Records(values));
  ASSERT_EQ(out.batches.size(), 1u);
  const formats::ColumnBatch& rows = out.batches[0];
  ASSERT_EQ(rows.num_rows, 3);
  EXPECT_EQ(rows.columns[0].Data<int64_t>()[1], 2);
  EXPECT_EQ(rows.columns[1].StringAt(0), "");
  EXPECT_FALSE(rows.columns[1].IsValid(1));  // proto3 optional, absent: null.
  EXPECT_EQ(rows.columns[1].StringAt(2), "last");
  std::vector<std::pair<size_t, std::string>> expect = {
      {2, "schema id 99 is unknown"},
      {3, "protobuf message shop.Order of schema id 10 (byte offsets in the record's value): truncated varint at byte 9"},
      {4, "magic byte 1"},
      {5, "schema id 12 does not parse as Protobuf: line 1, column 9"},
      {6, "schema id 7 is AVRO, not PROTOBUF"},
      {7, "message shop.Other of schema id 10 cannot be read as the table's columns: column 'id'"},
      {8, "schema id 10: message indexes [2]: index 2 of 2 messages"},
      {9, "message indexes: truncated index at byte 2"}};
  ASSERT_EQ(out.failures.size(), expect.size());
  for (size_t k = 0; k < expect.size(); ++k) {
    EXPECT_EQ(out.failures[k].index, expect[k].first);
    EXPECT_NE(out.failures[k].reason.find(expect[k].second), std::string::npos) << out.failures[k].reason;
  }
  // --evolve: the writer's `extra` is new to the table.
  auto evolve = MakeRecordDecoder({.format = SourceFormat::kProtobuf, .fields = OrderFields(), .registry = client});
  (*evolve)->set_collect_unknown_fields(true);
  EXPECT_EQ((*evolve)->Decode(Records({good})).batches[0].num_rows, 1);
  auto unknown = (*evolve)->TakeUnknownFields();
  ASSERT_EQ(unknown.size(), 1u);
  EXPECT_EQ(unknown.begin()->first, "extra");
  EXPECT_EQ(unknown.begin()->second->ToString(), "int");
}

TEST(RecordDecoder, JsonSchemaAndAutoOverEveryType) {
  StubRegistry registry;
  auto client = std::make_shared<SchemaRegistryClient>(SchemaRegistryClientOptions{.url = registry.url});
  auto json_schema = MakeRecordDecoder({.format = SourceFormat::kJsonSchema, .fields = OrderFields(), .registry = client});
  ASSERT_TRUE(json_schema.has_value());
  DecodedRecords js = (*json_schema)->Decode(Records({Framed(11, R"({"id":1,"note":"a"})"), Framed(7, R"({"id":2})"),
                                                     Framed(11, "{not json"), R"({"id":4})", Framed(11, R"({"id":5})")}));
  ASSERT_EQ(js.batches[0].num_rows, 2);
  EXPECT_EQ(js.batches[0].columns[0].Data<int64_t>()[1], 5);
  ASSERT_EQ(js.failures.size(), 3u);
  EXPECT_EQ(js.failures[0].index, 1u);
  EXPECT_NE(js.failures[0].reason.find("schema id 7 is AVRO, not JSON"), std::string::npos) << js.failures[0].reason;
  EXPECT_EQ(js.failures[1].index, 2u);
  EXPECT_EQ(js.failures[2].index, 3u);
  EXPECT_NE(js.failures[2].reason.find("magic byte"), std::string::npos) << js.failures[2].reason;

  auto decoder = MakeRecordDecoder({.format = SourceFormat::kAuto, .fields = OrderFields(), .registry = client});
  ASSERT_TRUE(decoder.has_value());
  DecodedRecords out = (*decoder)->Decode(Records({R"({"id":1})", Framed(7, OrderDatum(2, "avro")),
                                                   ProtoOrder(10, std::string(1, '\0'), 3, "proto"),
                                                   Framed(11, R"({"id":4,"note":"json-schema"})"),
                                                   Framed(99, "x"), ProtoOrder(10, std::string(1, '\0'), 6, nullptr)}));
  ASSERT_EQ(out.failures.size(), 1u);
  EXPECT_EQ(out.failures[0].index, 4u);
  EXPECT_NE(out.failures[0].reason.find("schema id 99 is unknown"), std::string::npos) << out.failures[0].reason;
  std::vector<std::pair<int64_t, std::string>> rows;
  for (const formats::ColumnBatch& b : out.batches) {
    for (int64_t r = 0; r < b.num_rows; ++r) {
      rows.emplace_back(b.columns[0].Data<int64_t>()[r],
                        b.columns[1].IsValid(r) ? std::string(b.columns[1].StringAt(r)) : "NULL");
    }
  }
  EXPECT_EQ(rows, (std::vector<std::pair<int64_t, std::string>>{
                      {1, "NULL"}, {2, "avro"}, {3, "proto"}, {4, "json-schema"}, {6, "NULL"}}));
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

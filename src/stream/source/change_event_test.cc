// ChangeEventParser: plain rows, tombstones by message key, Debezium change events with and
// without the schema/payload wrapper, and the reasons bad records get.
#include "stream/source/change_event.h"

#include <gtest/gtest.h>

namespace floe::stream {
namespace {

ChangeEvent Ok(ChangeEventParser& parser, std::string_view key, std::string_view value, bool value_null = false) {
  auto event = parser.Parse(key, key.data() == nullptr, value, value_null);
  EXPECT_TRUE(event.has_value()) << event.error().ToString();
  return event.has_value() ? std::move(*event) : ChangeEvent{};
}

std::string Reason(ChangeEventParser& parser, std::string_view key, std::string_view value, bool value_null = false) {
  auto event = parser.Parse(key, key.data() == nullptr, value, value_null);
  EXPECT_FALSE(event.has_value());
  return event.has_value() ? std::string() : event.error().message();
}

TEST(ChangeEvent, PlainValueIsTheRowAndTombstonesDeleteTheMessageKey) {
  ChangeEventParser parser(Envelope::kNone, {"order_id"}, false);
  ChangeEvent put = Ok(parser, "7", R"({"order_id":7,"status":"paid"})");
  EXPECT_EQ(put.kind, ChangeEvent::Kind::kUpsert);
  EXPECT_EQ(put.json(), R"({"order_id":7,"status":"paid"})");

  ChangeEvent bare = Ok(parser, " 7 ", {}, true);
  EXPECT_EQ(bare.kind, ChangeEvent::Kind::kDelete);
  EXPECT_EQ(bare.json(), R"({"order_id":7})");
  ChangeEvent object = Ok(parser, R"({"order_id":7})", {}, true);
  EXPECT_EQ(object.json(), R"({"order_id":7})");
  // Moving an event keeps its text (owned text must not be a view of itself).
  ChangeEvent moved = std::move(bare);
  EXPECT_EQ(moved.json(), R"({"order_id":7})");

  EXPECT_NE(Reason(parser, std::string_view(), {}, true).find("without a message key"), std::string::npos);
  EXPECT_NE(Reason(parser, "  ", {}, true).find("empty message key"), std::string::npos);
}

TEST(ChangeEvent, StringKeysTakeUnquotedTextAndMultiColumnKeysNeedAnObject) {
  ChangeEventParser strings(Envelope::kNone, {"sku"}, true);
  EXPECT_EQ(Ok(strings, "ab\"c", {}, true).json(), R"({"sku":"ab\"c"})");
  EXPECT_EQ(Ok(strings, R"("abc")", {}, true).json(), R"({"sku":"abc"})");

  ChangeEventParser pair(Envelope::kNone, {"region", "id"}, false);
  EXPECT_EQ(Ok(pair, R"({"region":"eu","id":1})", {}, true).json(), R"({"region":"eu","id":1})");
  std::string reason = Reason(pair, "1", {}, true);
  EXPECT_NE(reason.find("JSON object with the key columns (region, id)"), std::string::npos) << reason;
}

TEST(ChangeEvent, DebeziumOpsWithAndWithoutTheSchemaWrapper) {
  ChangeEventParser parser(Envelope::kDebezium, {"id"}, false);
  // Shaped after Debezium's documented PostgreSQL connector events.
  ChangeEvent create = Ok(parser, R"({"id":1004})",
                          R"({"before":null,"after":{"id":1004,"first_name":"Anne","email":"annek@noanswer.org"},
                              "source":{"connector":"postgresql","db":"postgres","table":"customers"},
                              "op":"c","ts_ms":1559033904863})");
  EXPECT_EQ(create.kind, ChangeEvent::Kind::kUpsert);
  EXPECT_EQ(create.json(), R"({"id":1004,"first_name":"Anne","email":"annek@noanswer.org"})");

  ChangeEvent update = Ok(parser, R"({"id":1004})",
                          R"({"schema":{"type":"struct","name":"dbserver1.inventory.customers.Envelope"},
                              "payload":{"before":{"id":1004,"first_name":"Anne"},
                                         "after":{"id":1004,"first_name":"Anne Marie"},"op":"u","ts_ms":1}})");
  EXPECT_EQ(update.kind, ChangeEvent::Kind::kUpsert);
  EXPECT_EQ(update.json(), R"({"id":1004,"first_name":"Anne Marie"})");

  ChangeEvent read = Ok(parser, R"({"id":1})", R"({"after":{"id":1},"op":"r"})");
  EXPECT_EQ(read.kind, ChangeEvent::Kind::kUpsert);

  ChangeEvent remove =
      Ok(parser, R"({"id":1004})", R"({"before":{"id":1004,"first_name":"Anne Marie"},"after":null,"op":"d"})");
  EXPECT_EQ(remove.kind, ChangeEvent::Kind::kDelete);
  EXPECT_EQ(remove.json(), R"({"id":1004,"first_name":"Anne Marie"})");
  // A delete without `before` (a table without a full replica identity) deletes the message key.
  ChangeEvent by_key = Ok(parser, R"({"id":9})", R"({"schema":{},"payload":{"before":null,"after":null,"op":"d"}})");
  EXPECT_EQ(by_key.kind, ChangeEvent::Kind::kDelete);
  EXPECT_EQ(by_key.json(), R"({"id":9})");
  // Debezium's tombstone after a delete, and a wrapper around a null payload.
  EXPECT_EQ(Ok(parser, "9", {}, true).kind, ChangeEvent::Kind::kDelete);
  EXPECT_EQ(Ok(parser, "9", R"({"schema":null,"payload":null})").kind, ChangeEvent::Kind::kDelete);
}

TEST(ChangeEvent, BadDebeziumEventsGetReasons) {
  ChangeEventParser parser(Envelope::kDebezium, {"id"}, false);
  EXPECT_NE(Reason(parser, "1", R"({"after":{"id":1},"op":"c")").find("not a Debezium change event"),
            std::string::npos);
  EXPECT_NE(Reason(parser, "1", "[1,2]").find("not a JSON object"), std::string::npos);
  EXPECT_NE(Reason(parser, "1", R"({"after":{"id":1}})").find("no \"op\""), std::string::npos);
  EXPECT_NE(Reason(parser, "1", R"({"after":null,"op":"u"})").find("no \"after\" object"), std::string::npos);
  EXPECT_NE(Reason(parser, "1", R"({"op":"t"})").find("op \"t\" is not supported"), std::string::npos);
  EXPECT_NE(Reason(parser, "1", R"({"before":5,"op":"d"})").find("not an object"), std::string::npos);
  EXPECT_NE(Reason(parser, "1", "\xff\xfe garbage").find("not a Debezium change event"), std::string::npos);
  std::string deep(5000, '[');
  EXPECT_NE(Reason(parser, "1", deep).find("not a Debezium change event"), std::string::npos);
}

TEST(ChangeEvent, EnvelopeNames) {
  EXPECT_EQ(*ParseEnvelope("none"), Envelope::kNone);
  EXPECT_EQ(*ParseEnvelope("debezium"), Envelope::kDebezium);
  EXPECT_FALSE(ParseEnvelope("maxwell").has_value());
}

}  // namespace
}  // namespace floe::stream

#include "formats/json/event_decoder.h"

#include <gtest/gtest.h>

#include <cmath>

#include "formats/json/iceberg_fields.h"
#include "formats/json/text_values.h"
#include "iceberg/schema_json.h"

namespace floe::formats {
namespace {

constexpr std::string_view kSchema = R"json({"type":"struct","schema-id":0,"fields":[
  {"id":1,"name":"id","required":true,"type":"string"},
  {"id":2,"name":"ts","required":false,"type":"timestamptz"},
  {"id":3,"name":"qty","required":false,"type":"int"},
  {"id":4,"name":"price","required":false,"type":"double"},
  {"id":5,"name":"amount","required":false,"type":"decimal(10, 2)"},
  {"id":6,"name":"day","required":false,"type":"date"},
  {"id":7,"name":"ok","required":false,"type":"boolean"},
  {"id":8,"name":"addr","required":false,"type":{"type":"struct","fields":[
     {"id":9,"name":"city","required":false,"type":"string"},
     {"id":10,"name":"zip","required":false,"type":"long"}]}},
  {"id":11,"name":"tags","required":false,"type":{"type":"list","element-id":12,"element":"string","element-required":false}},
  {"id":13,"name":"attrs","required":false,"type":{"type":"map","key-id":14,"key":"string","value-id":15,"value":"long","value-required":false}},
  {"id":16,"name":"u","required":false,"type":"uuid"}]})json";

std::unique_ptr<JsonEventDecoder> Make(EpochUnit unit = EpochUnit::kMicros) {
  auto schema = iceberg::SchemaFromJson(kSchema);
  EXPECT_TRUE(schema.has_value()) << schema.error().ToString();
  auto fields = BatchFieldsFromSchema(*schema);
  EXPECT_TRUE(fields.has_value());
  auto d = JsonEventDecoder::Make(*fields, unit);
  EXPECT_TRUE(d.has_value());
  return std::move(*d);
}

void Decode(JsonEventDecoder& d, std::string text) {
  text.append(JsonEventDecoder::kPadding, ' ');
  d.DecodeLines(std::string_view(text).substr(0, text.size() - JsonEventDecoder::kPadding), 1);
}

TEST(JsonEventDecoder, ABatchAfterABiggerOneHoldsOnlyItsOwnRows) {
  // The second batch starts with the first one's sizes reserved: nothing of the first may show.
  auto d = Make();
  std::string first;
  for (int i = 0; i < 500; ++i) {
    first += R"({"id":"first-)" + std::to_string(i) + R"(","qty":)" + std::to_string(i) +
             R"(,"addr":{"city":"Oslo","zip":7},"tags":["a","b",null],"attrs":{"k":1}})" + "\n";
  }
  Decode(*d, first);
  ColumnBatch big = d->TakeBatch();
  ASSERT_EQ(big.num_rows, 500);
  Decode(*d, R"({"id":"x"})" "\n" R"({"id":"y","qty":2,"tags":[]})");
  ASSERT_TRUE(d->errors().empty());
  ColumnBatch b = d->TakeBatch();
  ASSERT_EQ(b.num_rows, 2);
  EXPECT_EQ(b.columns[0].StringAt(0), "x");
  EXPECT_EQ(b.columns[0].StringAt(1), "y");
  EXPECT_EQ(b.columns[0].offsets.size(), 3u);
  EXPECT_EQ(b.columns[0].values.size(), 2u);
  EXPECT_FALSE(b.columns[2].IsValid(0));
  EXPECT_EQ(b.columns[2].Data<int32_t>()[1], 2);
  EXPECT_EQ(b.columns[2].values.size(), 2 * sizeof(int32_t));
  EXPECT_FALSE(b.columns[7].IsValid(0));
  EXPECT_EQ(b.columns[7].children[0].length, 2);
  EXPECT_EQ(b.columns[8].offsets.size(), 3u);
  EXPECT_EQ(b.columns[8].children[0].length, 0);
  EXPECT_EQ(big.columns[0].StringAt(499), "first-499");  // The first batch is untouched.
}

TEST(JsonEventDecoder, DecodesEveryKindOfValue) {
  auto d = Make();
  Decode(*d,
         R"({"id":"a","ts":"2026-01-02T03:04:05.123456Z","qty":3,"price":1.5,"amount":12.34,"day":"2026-01-02","ok":true,)"
         R"("addr":{"city":"Oslo","zip":"123"},"tags":["x",null,"y"],"attrs":{"k":1,"j":null},"u":"0123456789abcdef0123456789ABCDEF","extra":{"ignored":[1,2]}})"
         "\n"
         R"({"id":"b","ts":1767225600000000,"qty":"7","price":"NaN","amount":"-0.5"})"
         "\n\n"
         R"({"ts":"2026-01-01 00:00:00+02:00","id":"c","addr":null,"tags":[]})");
  ASSERT_TRUE(d->errors().empty()) << d->errors()[0].line << ": " << d->errors()[0].message;
  ColumnBatch b = d->TakeBatch();
  ASSERT_EQ(b.num_rows, 3);
  EXPECT_EQ(b.columns[0].StringAt(2), "c");
  const int64_t* ts = b.columns[1].Data<int64_t>();
  EXPECT_EQ(ts[0], text::ParseTimestamp("2026-01-02T03:04:05.123456Z").value());
  EXPECT_EQ(ts[1], 1767225600000000);
  EXPECT_EQ(ts[2], 1767225600000000 - 2 * 3600 * 1000000LL);
  EXPECT_EQ(b.columns[2].Data<int32_t>()[1], 7);
  EXPECT_FALSE(b.columns[2].IsValid(2));
  EXPECT_TRUE(std::isnan(b.columns[3].Data<double>()[1]));
  EXPECT_EQ(b.columns[4].Data<__int128>()[0], 1234);
  EXPECT_EQ(b.columns[4].Data<__int128>()[1], -50);
  EXPECT_EQ(b.columns[5].Data<int32_t>()[0], 20455);
  EXPECT_EQ(b.columns[7].children[1].Data<int64_t>()[0], 123);
  EXPECT_FALSE(b.columns[7].IsValid(2));
  EXPECT_EQ(b.columns[8].offsets, (std::vector<int32_t>{0, 3, 3, 3}));
  EXPECT_FALSE(b.columns[8].IsValid(1));
  EXPECT_TRUE(b.columns[8].IsValid(2));
  EXPECT_FALSE(b.columns[8].children[0].IsValid(1));
  EXPECT_EQ(b.columns[9].children[0].StringAt(1), "j");
  EXPECT_EQ(static_cast<uint8_t>(b.columns[10].FixedAt(0)[15]), 0xEF);
}

// Found by fuzz_json_event: epoch numbers whose microseconds do not fit 64 bits were multiplied
// (signed overflow) or cast from double (undefined) instead of being rejected.
TEST(JsonEventDecoder, TimestampsPastSixtyFourBitsAreBadLines) {
  auto d = Make(EpochUnit::kMillis);
  Decode(*d,
         "{\"id\":\"a\",\"ts\":17646336033600123}\n"
         "{\"id\":\"b\",\"ts\":1.76463e+19}\n"
         "{\"id\":\"c\",\"ts\":\"-9223372036854775808\"}\n"
         "{\"id\":\"ok\",\"ts\":1764633600000}");
  ASSERT_EQ(d->errors().size(), 3u);
  for (const auto& e : d->errors()) EXPECT_NE(e.message.find("range"), std::string::npos) << e.message;
  ColumnBatch b = d->TakeBatch();
  ASSERT_EQ(b.num_rows, 1);
  EXPECT_EQ(b.columns[1].Data<int64_t>()[0], 1764633600000000);
  auto nanos = Make(EpochUnit::kNanos);
  Decode(*nanos, "{\"id\":\"n\",\"ts\":-9223372036854775808}\n{\"id\":\"m\",\"ts\":-1}");
  ASSERT_TRUE(nanos->errors().empty());
  ColumnBatch n = nanos->TakeBatch();
  EXPECT_EQ(n.columns[1].Data<int64_t>()[0], -9223372036854776);  // Floor of -9223372036854775.808.
  EXPECT_EQ(n.columns[1].Data<int64_t>()[1], -1);
}

TEST(JsonEventDecoder, BadLinesAreReportedAndLeaveNoTrace) {
  auto d = Make();
  Decode(*d,
         "{\"id\":\"ok1\",\"tags\":[\"a\"]}\n"
         "{\"id\":\"bad\",\"tags\":[\"a\",\"b\"],\"qty\":\"many\"}\n"
         "not json\n"
         "{\"id\":\"trunc\",\"qty\":\n"
         "{\"qty\":1}\n"
         "{\"id\":\"x\",\"qty\":99999999999}\n"
         "{\"id\":\"x\",\"amount\":1.234}\n"
         "{\"id\":\"x\",\"day\":\"2026-02-30\"}\n"
         "{\"id\":\"x\",\"id\":\"y\"}\n"
         "[1,2]\n"
         "{\"id\":\"ok2\",\"tags\":[\"c\"]}");
  ASSERT_EQ(d->errors().size(), 9u);
  EXPECT_EQ(d->errors()[0].line, 2);
  EXPECT_NE(d->errors()[0].message.find("qty"), std::string::npos);
  EXPECT_EQ(d->errors()[3].line, 5);
  EXPECT_NE(d->errors()[3].message.find("required field 'id'"), std::string::npos);
  ColumnBatch b = d->TakeBatch();
  ASSERT_EQ(b.num_rows, 2);
  EXPECT_EQ(b.columns[0].StringAt(1), "ok2");
  // The rolled-back list elements of the bad line are gone.
  EXPECT_EQ(b.columns[8].offsets, (std::vector<int32_t>{0, 1, 2}));
  EXPECT_EQ(b.columns[8].children[0].StringAt(1), "c");
  for (const auto& c : b.columns) EXPECT_EQ(c.length, 2);
}

TEST(JsonEventDecoder, EpochUnitsAndGarbage) {
  auto ms = Make(EpochUnit::kMillis);
  Decode(*ms, "{\"id\":\"a\",\"ts\":1767225600123}");
  EXPECT_EQ(ms->TakeBatch().columns[1].Data<int64_t>()[0], 1767225600123000);
  auto ns = Make(EpochUnit::kNanos);
  Decode(*ns, "{\"id\":\"a\",\"ts\":1767225600123456789}");
  EXPECT_EQ(ns->TakeBatch().columns[1].Data<int64_t>()[0], 1767225600123456);
  auto d = Make();
  uint32_t seed = 5;
  std::string garbage;
  for (int i = 0; i < 20000; ++i) {
    seed = seed * 1103515245 + 12345;
    garbage.push_back("{}[]\":,0123456789aeltrufsn \n\\"[seed >> 16 & 31 % 26]);
  }
  Decode(*d, garbage);
  ColumnBatch b = d->TakeBatch();
  for (const auto& c : b.columns) EXPECT_EQ(c.length, b.num_rows);
}

// On-Demand finds some errors only as it reads: each of these lines is malformed JSON, must be
// an error and must leave nothing behind, whatever the decoder had appended before finding it.
TEST(JsonEventDecoder, ErrorsFoundLateUndoTheRow) {
  auto d = Make();
  d->set_collect_unknown_fields(true);
  const std::vector<std::string> bad = {
      R"({"id":"a","qty":1} x)",                      // Trailing content after the object.
      R"({"id":"a","qty":1}{"id":"b"})",              // A second object on the line.
      R"({"id":"a","qty":1}})",                       // A stray closing brace.
      R"({"id":"a","tags":["x"],"qty":1)",            // Unclosed object.
      R"({"id":"a","tags":["x","y)",                  // Unclosed string.
      R"({"id":"a","tags":["x"],"ok":tru})",           // Bad atom after good values.
      R"({"id":"a","tags":["x"],"ok":nul})",
      R"({"id":"a","tags":["x"],"qty":01})",           // Bad number.
      R"({"id":"a","tags":["x"],"price":1.})",
      R"({"id":"a","tags":["x"],"price":-})",
      R"({"id":"a","tags":["x"],"qty":123456789012345678901234567890})",  // Past 64 bits.
      R"({"id":"a","addr":{"city":"x"]})",             // Mismatched brackets.
      R"({"id":"a","tags":["x"}})",
      R"({"id":"a","addr":{"city":"x" "zip":1}})",     // Missing comma.
      R"({"id":"a","addr":{"city" "x"}})",             // Missing colon.
      R"({"id":"a","tags":["x",]})",                   // Trailing comma.
      R"({"id":"a","addr":"x":1})",                    // A string value followed by ':'.
      R"({"id":"a","extra":"x":1})",
      R"({"id":"a","tags":["x"],"city":"bad \q escape"})",
      R"({"id":"a","tags":["x"],"bad \q key":1})",
      "{\"id\":\"a\",\"tags\":[\"x\"],\"s\":\"raw\ttab\"}",   // Unescaped control character.
      "{\"id\":\"a\",\"tags\":[\"x\"],\"s\":\"\xff\"}",       // Not UTF-8.
      // Unknown keys are skipped, but checked as the DOM parser checked them.
      R"({"id":"a","tags":["x"],"extra":[1,2,tru]})",
      R"({"id":"a","tags":["x"],"extra":{"k" 1}})",
      R"({"id":"a","tags":["x"],"extra":{"k":[1}]})",
      R"({"id":"a","tags":["x"],"extra":[{"\q":1}]})",
      R"({"id":"a","tags":["x"],"extra":1e999})",
      R"({"id":"a","tags":["x"],"extra":18446744073709551616})",
  };
  std::string text;
  for (const auto& line : bad) text += line + "\n{\"id\":\"ok\",\"tags\":[\"t\"],\"addr\":{\"zip\":1}}\n";
  Decode(*d, text);
  ASSERT_EQ(d->errors().size(), bad.size());
  for (size_t i = 0; i < bad.size(); ++i) EXPECT_EQ(d->errors()[i].line, static_cast<int64_t>(2 * i + 1)) << bad[i];
  EXPECT_TRUE(d->TakeUnknownFields().empty()) << "keys of lines that are not JSON are not noted";
  ColumnBatch b = d->TakeBatch();
  ASSERT_EQ(b.num_rows, static_cast<int64_t>(bad.size()));
  for (int64_t r = 0; r < b.num_rows; ++r) {
    EXPECT_EQ(b.columns[0].StringAt(r), "ok");
    EXPECT_EQ(b.columns[8].offsets[static_cast<size_t>(r) + 1], r + 1);
    EXPECT_EQ(b.columns[8].children[0].StringAt(r), "t");
    EXPECT_EQ(b.columns[7].children[1].Data<int64_t>()[r], 1);
  }
  for (const auto& c : b.columns) EXPECT_EQ(c.length, b.num_rows);
}

// A line cut anywhere is an error (the whole line aside), never a crash or a partial row.
TEST(JsonEventDecoder, LinesCutAtEveryByteAreErrors) {
  const std::string line =
      R"({"id":"a\"b","ts":"2026-01-02T03:04:05Z","qty":-12,"price":1.5e3,"amount":"12.34","day":20455,"ok":false,)"
      R"("addr":{"city":"Oslo","zip":123},"tags":["x",null,"\u00e9"],"attrs":{"k":1,"j":null},"u":null,"extra":[{"n":[true]}]})";
  for (size_t cut = 0; cut <= line.size(); ++cut) {
    auto d = Make();
    std::string prefix = line.substr(0, cut);
    Decode(*d, prefix + "\n" + line + "\n" + prefix);
    const bool whole = cut == line.size();
    const bool blank = cut == 0;  // An empty line is skipped, not an error.
    ASSERT_EQ(d->errors().size(), whole || blank ? 0u : 2u) << prefix;
    ColumnBatch b = d->TakeBatch();
    ASSERT_EQ(b.num_rows, whole ? 3 : 1) << prefix;
    for (const auto& c : b.columns) ASSERT_EQ(c.length, b.num_rows) << prefix;
    EXPECT_EQ(b.columns[0].StringAt(0), "a\"b");
    EXPECT_EQ(b.columns[8].offsets, whole ? (std::vector<int32_t>{0, 3, 6, 9}) : (std::vector<int32_t>{0, 3})) << prefix;
    EXPECT_EQ(b.columns[8].children[0].StringAt(2), "\u00e9");
    EXPECT_EQ(b.columns[9].children[0].length, whole ? 6 : 2) << prefix;
  }
}

// A line that fails inside a struct or list value, after appending to its children but before
// closing its slot, leaves nothing in the children either.
TEST(JsonEventDecoder, FailuresInsideNestedValuesLeaveNoChildren) {
  auto d = Make();
  Decode(*d,
         "{\"id\":\"a\",\"tags\":[\"x\",{}]}\n"                  // The second element is bad.
         "{\"id\":\"b\",\"attrs\":{\"k\":1,\"j\":\"many\"}}\n"   // The second value is bad.
         "{\"id\":\"c\",\"addr\":{\"city\":\"x\",\"zip\":[]}}\n" // The struct's second field is bad.
         "{\"id\":\"d\",\"tags\":[\"y\"],\"attrs\":{\"m\":2},\"addr\":{\"city\":\"Oslo\"}}");
  ASSERT_EQ(d->errors().size(), 3u);
  ColumnBatch b = d->TakeBatch();
  ASSERT_EQ(b.num_rows, 1);
  EXPECT_EQ(b.columns[8].offsets, (std::vector<int32_t>{0, 1}));
  EXPECT_EQ(b.columns[8].children[0].length, 1);
  EXPECT_EQ(b.columns[8].children[0].StringAt(0), "y");
  EXPECT_EQ(b.columns[9].children[0].length, 1);
  EXPECT_EQ(b.columns[9].children[0].StringAt(0), "m");
  EXPECT_EQ(b.columns[9].children[1].length, 1);
  EXPECT_EQ(b.columns[7].children[0].length, 1);
  EXPECT_EQ(b.columns[7].children[0].StringAt(0), "Oslo");
}

TEST(JsonEventDecoder, LongValuesAndDeepNesting) {
  auto d = Make();
  const std::string long_text(3 << 20, 'x');
  std::string text = "{\"id\":\"" + long_text + "\",\"tags\":[\"" + long_text + "\"]}\n";
  // The DOM parser's limit, kept: the line's object and 1022 arrays inside it are fine, 1023 are
  // too deep (skipped unknown values are counted too); far deeper is an error, not a crash.
  text += "{\"id\":\"ok\",\"extra\":" + std::string(1022, '[') + std::string(1022, ']') + "}\n";
  text += "{\"id\":\"deep\",\"extra\":" + std::string(1023, '[') + std::string(1023, ']') + "}\n";
  text += "{\"id\":\"deeper\",\"extra\":" + std::string(200000, '[') + std::string(200000, ']') + "}\n";
  text += "{\"id\":\"open\",\"extra\":" + std::string(200000, '{') + "}\n";
  Decode(*d, text);
  ASSERT_EQ(d->errors().size(), 3u);
  EXPECT_EQ(d->errors()[0].line, 3);
  EXPECT_NE(d->errors()[0].message.find("deep"), std::string::npos) << d->errors()[0].message;
  ColumnBatch b = d->TakeBatch();
  ASSERT_EQ(b.num_rows, 2);
  EXPECT_EQ(b.columns[0].StringAt(0), long_text);
  EXPECT_EQ(b.columns[8].children[0].StringAt(0), long_text);
  EXPECT_EQ(b.columns[0].StringAt(1), "ok");
}

std::unique_ptr<JsonEventDecoder> MakeNumbers() {
  auto field = [](std::string name, DataType type) {
    Field f;
    f.name = std::move(name);
    f.type = std::move(type);
    return f;
  };
  auto d = JsonEventDecoder::Make({field("wide", DecimalType(38, 20)), field("int", DecimalType(38, 0)),
                                   field("d", Primitive(TypeId::kDouble)), field("s", Primitive(TypeId::kString)),
                                   field("n", Primitive(TypeId::kInt64))});
  EXPECT_TRUE(d.has_value());
  return std::move(*d);
}

// Decimals read a number's text, so every digit is kept (they went through a double before).
TEST(JsonEventDecoder, DecimalsFromNumbersKeepEveryDigit) {
  auto d = MakeNumbers();
  Decode(*d,
         "{\"wide\":12.34567890123456789012,\"int\":123456789012345678901234567890}\n"
         "{\"wide\":1e-20 ,\"int\":-1.5e3}\n"
         "{\"wide\":1e-21}\n"   // More fraction digits than the scale: an error, never rounded.
         "{\"int\":0.5}\n"
         "{\"wide\":01}\n");    // Not a JSON number.
  ASSERT_EQ(d->errors().size(), 3u);
  ColumnBatch b = d->TakeBatch();
  ASSERT_EQ(b.num_rows, 2);
  auto digits = [](std::string_view text) {
    __int128 v = 0;
    for (char c : text) v = v * 10 + (c - '0');
    return v;
  };
  EXPECT_TRUE(b.columns[0].Data<__int128>()[0] == digits("1234567890123456789012"));
  EXPECT_TRUE(b.columns[1].Data<__int128>()[0] == digits("123456789012345678901234567890"));
  EXPECT_TRUE(b.columns[0].Data<__int128>()[1] == 1);
  EXPECT_TRUE(b.columns[1].Data<__int128>()[1] == -1500);
}

// Other columns read numbers as the DOM parser did: 64-bit integers exactly, anything else as
// the nearest double (long fractions included), integers past 64 bits refused.
TEST(JsonEventDecoder, NumbersReadAsBefore) {
  auto d = MakeNumbers();
  Decode(*d,
         "{\"d\":922337203685.4775807,\"s\":3.1415926535897932384626,\"n\":-9223372036854775808}\n"
         "{\"d\":18446744073709551615,\"s\":18446744073709551615,\"n\":1e3}\n"
         "{\"d\":18446744073709551616}\n"
         "{\"n\":9223372036854775808}\n"
         "{\"d\":-9223372036854775809}\n"
         "{\"d\":-9223372036854775808,\"n\":-0}\n"
         "{\"d\":1.8446744073709551616e19 }\n");
  ASSERT_EQ(d->errors().size(), 3u);
  EXPECT_EQ(d->errors()[2].line, 5);
  ColumnBatch b = d->TakeBatch();
  ASSERT_EQ(b.num_rows, 4);
  EXPECT_EQ(b.columns[2].Data<double>()[2], -9223372036854775808.0);
  EXPECT_EQ(b.columns[4].Data<int64_t>()[2], 0);
  EXPECT_EQ(b.columns[2].Data<double>()[3], 18446744073709551616.0);
  EXPECT_EQ(b.columns[2].Data<double>()[0], 922337203685.4775807);
  EXPECT_EQ(b.columns[3].StringAt(0), "3.141592653589793");
  EXPECT_EQ(b.columns[4].Data<int64_t>()[0], INT64_MIN);
  EXPECT_EQ(b.columns[2].Data<double>()[1], 18446744073709551615.0);
  EXPECT_EQ(b.columns[3].StringAt(1), "18446744073709551615");
  EXPECT_EQ(b.columns[4].Data<int64_t>()[1], 1000);
}

TEST(TextValues, Parsers) {
  EXPECT_EQ(text::ParseDate("1970-01-01"), 0);
  EXPECT_EQ(text::ParseDate("1969-12-31"), -1);
  EXPECT_FALSE(text::ParseDate("2025-02-29"));
  EXPECT_EQ(text::ParseTime("00:00:01.5"), 1500000);
  EXPECT_EQ(text::ParseTimestamp("1970-01-01T00:00:00Z"), 0);
  EXPECT_EQ(text::ParseTimestamp("1970-01-01"), 0);
  EXPECT_EQ(text::ParseTimestamp("1970-01-01T01:00:00+0100"), 0);
  EXPECT_FALSE(text::ParseTimestamp("1970-01-01T25:00:00"));
  EXPECT_EQ(text::ParseDecimal("1.5e2", 5, 1), 1500);
  EXPECT_EQ(text::ParseDecimal("-000.10", 3, 2), -10);
  EXPECT_FALSE(text::ParseDecimal("1000", 3, 0));
  EXPECT_EQ(*text::DecodeBase64("aGk="), "hi");
}

}  // namespace
}  // namespace floe::formats

namespace floe::formats {
namespace {

TEST(JsonEventDecoderEvolve, NotesUnknownTopLevelKeysWithTheirTypes) {
  auto d = Make();
  Decode(*d, R"({"id":"a","channel":"web","score":3,"ratio":1,"flag":true,"nested":{"x":1},"list":[1],"nothing":null})"
             "\n");
  EXPECT_TRUE(d->TakeUnknownFields().empty()) << "off by default";
  (void)d->TakeBatch();
  d->set_collect_unknown_fields(true);
  Decode(*d,
         R"({"id":"a","channel":"web","score":3,"ratio":1,"flag":true,"nested":{"x":1},"list":[1],"nothing":null,"addr":{"city":"x","street":"y"}})"
         "\n"
         R"({"id":"b","ratio":2.5,"score":4})"
         "\n");
  auto unknown = d->TakeUnknownFields();
  EXPECT_EQ(unknown, (std::map<std::string, TypeId>{{"channel", TypeId::kString},
                                                    {"flag", TypeId::kBoolean},
                                                    {"ratio", TypeId::kDouble},  // 1 then 2.5: widened.
                                                    {"score", TypeId::kInt64}}));
  EXPECT_TRUE(d->TakeUnknownFields().empty()) << "taken";
  // A line with a schema error still notes the keys before it (it is JSON); one that is not
  // JSON notes nothing, wherever its error is.
  Decode(*d, R"({"id":"c","late":1,"qty":"many"})" "\n" R"({"id":"d","never":1,"qty":[})" "\n");
  EXPECT_EQ(d->TakeUnknownFields(), (std::map<std::string, TypeId>{{"late", TypeId::kInt64}}));
  EXPECT_EQ(d->errors().size(), 2u);
  EXPECT_EQ(d->TakeBatch().num_rows, 2) << "rows still decode, ignoring the keys";
}

}  // namespace
}  // namespace floe::formats

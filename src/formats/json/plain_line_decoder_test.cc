// The fast path must give exactly the general path's rows and errors, and must take the lines it
// is for: each test decodes the same text with the fast path on and off and compares.
#include "formats/json/plain_line_decoder.h"

#include <gtest/gtest.h>

#include <cstring>
#include <random>

#include "formats/json/event_decoder.h"
#include "formats/json/iceberg_fields.h"
#include "iceberg/schema_json.h"

namespace floe::formats::json {
namespace {

constexpr std::string_view kSchema = R"json({"type":"struct","schema-id":0,"fields":[
  {"id":1,"name":"id","required":true,"type":"string"},
  {"id":2,"name":"ts","required":false,"type":"timestamptz"},
  {"id":3,"name":"qty","required":false,"type":"int"},
  {"id":4,"name":"n","required":false,"type":"long"},
  {"id":5,"name":"price","required":false,"type":"double"},
  {"id":6,"name":"f","required":false,"type":"float"},
  {"id":7,"name":"ok","required":false,"type":"boolean"},
  {"id":8,"name":"day","required":false,"type":"date"},
  {"id":9,"name":"a key that is rather long, with \"quotes\"","required":false,"type":"string"},
  {"id":10,"name":"amount","required":false,"type":"decimal(10, 2)"},
  {"id":11,"name":"addr","required":false,"type":{"type":"struct","fields":[
     {"id":12,"name":"city","required":false,"type":"string"},
     {"id":14,"name":"zip","required":true,"type":"long"}]}},
  {"id":13,"name":"local","required":false,"type":"timestamp"}]})json";

std::vector<Field> Fields() {
  auto schema = iceberg::SchemaFromJson(kSchema);
  EXPECT_TRUE(schema.has_value()) << schema.error().ToString();
  auto fields = BatchFieldsFromSchema(*schema);
  EXPECT_TRUE(fields.has_value());
  return *fields;
}

std::unique_ptr<JsonEventDecoder> MakeDecoder(bool fast, EpochUnit unit) {
  auto d = JsonEventDecoder::Make(Fields(), unit);
  EXPECT_TRUE(d.has_value());
  (*d)->set_fast_path(fast);
  return std::move(*d);
}

struct Outcome {
  ColumnBatch batch;
  std::vector<LineError> errors;
};

Outcome DecodeText(const std::string& text, bool fast, EpochUnit unit = EpochUnit::kMicros) {
  auto d = MakeDecoder(fast, unit);
  std::string padded = text + std::string(JsonEventDecoder::kPadding, ' ');
  d->DecodeLines(std::string_view(padded).substr(0, text.size()), 1);
  return {d->TakeBatch(), d->errors()};
}

// Decodes `text` both ways and expects the same rows and the same errors.
void ExpectPathsAgree(const std::string& text, EpochUnit unit = EpochUnit::kMicros) {
  Outcome fast = DecodeText(text, true, unit);
  Outcome general = DecodeText(text, false, unit);
  ASSERT_EQ(fast.batch.num_rows, general.batch.num_rows) << text;
  for (size_t c = 0; c < fast.batch.columns.size(); ++c) {
    ASSERT_TRUE(SameSlots(fast.batch.columns[c], general.batch.columns[c])) << text << "\ncolumn " << fast.batch.fields[c].name;
  }
  ASSERT_EQ(fast.errors.size(), general.errors.size()) << text;
  for (size_t i = 0; i < fast.errors.size(); ++i) {
    EXPECT_EQ(fast.errors[i].line, general.errors[i].line) << text;
    EXPECT_EQ(fast.errors[i].message, general.errors[i].message) << text;
  }
}

// Whether the fast path itself takes `line` (padding after it filled with `padding`).
bool FastPathTakes(const std::string& line, char padding = ' ') {
  static const std::vector<Field> fields = Fields();
  PlainLineDecoder fast(fields, EpochUnit::kMicros);
  ColumnBatch batch = MakeEmptyBatch(fields);
  std::string buffer = line + std::string(JsonEventDecoder::kPadding, padding);
  return fast.DecodeLine(buffer.data(), buffer.data() + line.size(), batch.columns) != nullptr;
}

const std::vector<std::string> kTaken = {
    R"({"id":"a","ts":"2026-01-02T03:04:05.123456Z","qty":3,"n":-9007199254740993,"price":1.5,"f":0.1,"ok":true,"day":"2026-01-02"})",
    R"({"id":"","ts":1767225600000000,"qty":-2147483648,"n":0,"price":-0,"f":-0.0,"ok":false,"day":20455})",
    R"({ "id" : "spaced" ,	"qty" : 2147483647 , "price" : 123456789012345 }	)",
    "{\"id\":\"carriage return\",\"price\":0.000000000000001}\r",
    R"({"price":99999.9999999999,"id":"keys out of order","qty":1,"n":999999999999999999})",
    R"({"id":"nulls","ts":null,"qty":null,"n":null,"price":null,"f":null,"ok":null,"day":null,"amount":null,"addr":null})",
    R"({"id":"utf-8: é 日本 🎉","local":"2026-01-01 00:00:00+02:00"})",
    R"({"id":"x","ts":"2026-01-01T00:00:00-05:30","local":-1})",
    R"({"trace":"abc","id":"unknown scalars","v":1,"w":-2.5,"b":true,"z":null,"c":false,"qty":4})",
    R"({"id":"nested","addr":{"city":"Oslo","zip":7},"qty":1})",
    R"({"id":"nested, out of order","addr":{ "zip" : -1 , "note":"skipped", "city" : null }})",
    R"({"addr":null,"id":"null object"})",
};

// Each line is declined (the general path decodes it, or reports it).
const std::vector<std::string> kDeclined = {
    R"({"id":"escaped \" quote"})",
    R"({"id":"x","price":1e3})",
    R"({"id":"x","price":1234567890123456})",   // 16 digits: past the exact short form.
    R"({"id":"x","price":0.1234567890123456})",
    R"({"id":"x","n":1234567890123456789})",    // 19 digits.
    R"({"id":"x","qty":2147483648})",           // Past int.
    R"({"id":"x","qty":1.0})",                  // An integral decimal for an int column.
    R"({"id":"x","qty":"7"})",                  // A numeric string.
    R"({"id":42})",                             // A number for a string.
    R"({"id":"x","unknown":{"a":1}})",            // Unknown keys: only scalars are stepped over.
    R"({"id":"x","unknown":[1]})",
    R"({"id":"x","unknown":1e3})",
    R"({"id":"x","unknown":18446744073709551616})",
    R"({"id":"x","unknown":"esc\"aped"})",
    R"({"id":"x","unknown":tru})",
    R"({"id":"x","unknown":"x":1})",
    R"({"id":"x","id":"y"})",
    R"({"id":"x","addr":{"city":"Oslo","city":"Bergen"}})",
    R"({"id":"x","addr":{"city":{"name":"Oslo"}}})",
    R"({"id":"x","addr":{"zip":"7"}})",
    R"({"id":"x","addr":["Oslo"]})",
    R"({"id":"x","addr":{"city":"Oslo"})",
    R"({"id":"x","addr":{"city":"Oslo",}})",
    R"({"id":"x","addr":{"zip":1,"extra":[1]}})",
    R"({"id":"x","addr":{"city":"Oslo"}})",         // A required nested field missing.
    R"({"id":"x","addr":{"city":7,"zip":1}})",
    R"({"id":"x","amount":1.25})",
    R"({"id":"x","a key that is rather long, with \"quotes\"":"y"})",
    R"({"id":"x","ts":"yesterday"})",
    R"({"id":"x","day":"2026-02-30"})",
    R"({"id":"x","ok":"true"})",
    R"({"qty":1})",                             // A required field missing.
    R"({"id":null})",
    R"({"id":"x"} trailing)",
    R"({"id":"x"}{"id":"y"})",
    R"({"id":"x",})",
    R"({"id":"x" "qty":1})",
    R"({"id" "x"})",
    R"({"id":"x","qty":01})",
    R"({"id":"x","qty":-})",
    R"({"id":"x","price":1.})",
    R"({"id":"x","price":.5})",
    R"({"id":"x","ok":tru})",
    R"({"id":"x","ok":truex})",
    R"({"id":"x","f":nul})",
    R"([{"id":"x"}])",
    R"("id")",
    "{\"id\":\"tab\tinside\"}",
    "{\"id\":\"\xff\"}",
    "{\"id\":\"\xc0\xaf overlong\"}",
    "{\"id\":\"\xed\xa0\x80 surrogate\"}",
    "{\"id\":\"\xe6\x97 cut\"}",
    std::string("{\"id\":\"nul\0byte\"}", 17),
    "{\"id\":\"x\"}\x80",
    "",
    "   ",
};

TEST(PlainLineDecoder, TakesPlainlyWrittenEvents) {
  for (const std::string& line : kTaken) EXPECT_TRUE(FastPathTakes(line)) << line;
}

TEST(PlainLineDecoder, DeclinesEverythingElse) {
  for (const std::string& line : kDeclined) EXPECT_FALSE(FastPathTakes(line)) << line;
}

// With --evolve the general path notes unknown keys, so the fast path leaves such lines to it.
TEST(PlainLineDecoder, LeavesUnknownKeysToTheGeneralPathWhenTheyAreNoted) {
  for (bool fast : {true, false}) {
    auto d = MakeDecoder(fast, EpochUnit::kMicros);
    d->set_collect_unknown_fields(true);
    std::string text = R"({"id":"a","extra":7,"label":"x"})" "\n" + std::string(JsonEventDecoder::kPadding, ' ');
    d->DecodeLines(std::string_view(text).substr(0, text.size() - JsonEventDecoder::kPadding), 1);
    auto unknown = d->TakeUnknownFields();
    EXPECT_EQ(unknown.size(), 2u) << fast;
    EXPECT_EQ(unknown["extra"], TypeId::kInt64) << fast;
    EXPECT_EQ(d->TakeBatch().num_rows, 1) << fast;
  }
}

TEST(PlainLineDecoder, GivesTheGeneralPathsRowsAndErrors) {
  std::string text;
  for (const std::string& line : kTaken) text += line + "\n";
  for (const std::string& line : kDeclined) text += line + "\n" + kTaken[0] + "\n";
  ExpectPathsAgree(text);
  ExpectPathsAgree(text, EpochUnit::kMillis);
  ExpectPathsAgree(text, EpochUnit::kNanos);
}

// The last line may end without '\n' at the end of the input: bytes after the end (the
// padding) must never complete it.
TEST(PlainLineDecoder, NeverReadsPastTheEndIntoAValue) {
  const std::string whole = R"({"id":"abc","qty":123,"ok":true})";
  for (size_t cut = 0; cut < whole.size(); ++cut) {
    const std::string line = whole.substr(0, cut);
    std::string buffer = line + whole.substr(cut) + std::string(JsonEventDecoder::kPadding, ' ');
    static const std::vector<Field> fields = Fields();
    PlainLineDecoder fast(fields, EpochUnit::kMicros);
    ColumnBatch batch = MakeEmptyBatch(fields);
    EXPECT_EQ(fast.DecodeLine(buffer.data(), buffer.data() + cut, batch.columns), nullptr) << line;
  }
  EXPECT_TRUE(FastPathTakes(whole, '}'));
}

TEST(PlainLineDecoder, LinesCutAtEveryByteAgree) {
  for (const std::string& whole : kTaken) {
    for (size_t cut = 0; cut <= whole.size(); ++cut) {
      std::string prefix = whole.substr(0, cut);
      ExpectPathsAgree(prefix + "\n" + whole + "\n" + prefix);
    }
  }
}

// Decimals of every length the fast path reads exactly, into double and float columns.
TEST(PlainLineDecoder, ShortDecimalsAgree) {
  std::mt19937 random(42);
  std::string text;
  for (int i = 0; i < 20000; ++i) {
    std::string digits = std::to_string(random() % 9 + 1);
    const size_t length = random() % 15 + 1;
    while (digits.size() < length) digits.push_back(static_cast<char>('0' + random() % 10));
    std::string number = random() % 2 ? "-" : "";
    if (random() % 3 == 0) {  // Under one, after some zeros.
      number += "0." + std::string(random() % 8, '0') + digits;
    } else {
      const size_t point = 1 + random() % digits.size();
      number.append(digits, 0, point);
      if (point < digits.size()) {
        number.push_back('.');
        number.append(digits, point);
      }
    }
    text += R"({"id":"d","price":)" + number + R"(,"f":)" + number + "}\n";
  }
  EXPECT_TRUE(FastPathTakes(text.substr(0, text.find('\n'))));
  ExpectPathsAgree(text);
}

// Random edits of good lines: whatever the fast path takes, it takes as the general path does.
TEST(PlainLineDecoder, RandomEditsAgree) {
  std::mt19937 random(20261204);
  const std::string alphabet = "{}[]\":,.-+0123456789eEtrufalsn \t\r\\/\x01\x7f\xc3\xa9\xff";
  for (int round = 0; round < 400; ++round) {
    std::string text;
    for (int l = 0; l < 8; ++l) {
      std::string line = kTaken[random() % kTaken.size()];
      const int edits = static_cast<int>(random() % 3);
      for (int e = 0; e < edits && !line.empty(); ++e) {
        const size_t at = random() % line.size();
        const char c = alphabet[random() % alphabet.size()];
        switch (random() % 3) {
          case 0: line[at] = c; break;
          case 1: line.insert(line.begin() + static_cast<long>(at), c); break;
          default: line.erase(at, 1); break;
        }
      }
      text += line + "\n";
    }
    ExpectPathsAgree(text);
    if (HasFatalFailure()) return;
  }
}

}  // namespace
}  // namespace floe::formats::json

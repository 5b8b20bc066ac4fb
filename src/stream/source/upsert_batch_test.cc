// UpsertBatch: the last change per key wins by record index, across row and delete batches
// added in any order; null keys are dead letters; every touched key is deleted once.
#include "stream/source/upsert_batch.h"

#include <gtest/gtest.h>

#include <map>
#include <set>

#include "formats/json/event_decoder.h"
#include "formats/json/iceberg_fields.h"

namespace floe::stream {
namespace {

using iceberg::NestedField;
using iceberg::Type;

iceberg::Schema TableSchema() {
  return iceberg::Schema(0,
                         {NestedField{1, "region", true, Type::Primitive(iceberg::TypeId::kString)},
                          NestedField{2, "id", true, Type::Primitive(iceberg::TypeId::kLong)},
                          NestedField{3, "status", false, Type::Primitive(iceberg::TypeId::kString)}},
                         {1, 2});
}

// Decodes JSON lines with `schema`'s columns, all made optional (the decoder itself refuses a
// required column that is missing: the batch must hold up without that check too).
formats::ColumnBatch Decode(const iceberg::Schema& schema, const std::string& text) {
  std::vector<NestedField> fields = schema.fields();
  for (NestedField& f : fields) f.required = false;
  auto decoder = formats::JsonEventDecoder::Make(*formats::BatchFieldsFromSchema(iceberg::Schema(0, fields)));
  EXPECT_TRUE(decoder.has_value());
  std::string lines = text;
  size_t size = lines.size();
  lines.append(formats::JsonEventDecoder::kPadding, '\0');
  (*decoder)->DecodeLines(std::string_view(lines.data(), size), 1);
  EXPECT_TRUE((*decoder)->errors().empty()) << (*decoder)->errors().front().message;
  return (*decoder)->TakeBatch();
}

// "region/id" -> status of every winning row.
std::map<std::string, std::string> Winners(const UpsertBatch& batch) {
  std::map<std::string, std::string> out;
  for (const formats::ColumnBatch& b : batch.WinningRows()) {
    for (int64_t r = 0; r < b.num_rows; ++r) {
      std::string key = std::string(b.columns[0].StringAt(r)) + "/" + std::to_string(b.columns[1].Data<int64_t>()[r]);
      EXPECT_FALSE(out.contains(key)) << key << " won twice";
      out[key] = std::string(b.columns[2].StringAt(r));
    }
  }
  return out;
}

std::multiset<std::string> Touched(const UpsertBatch& batch) {
  std::multiset<std::string> out;
  for (const formats::ColumnBatch& b : batch.TouchedKeys()) {
    EXPECT_EQ(b.fields.size(), 2u);
    EXPECT_EQ(b.fields[0].id, 1);
    EXPECT_EQ(b.fields[1].id, 2);
    for (int64_t r = 0; r < b.num_rows; ++r) {
      out.insert(std::string(b.columns[0].StringAt(r)) + "/" + std::to_string(b.columns[1].Data<int64_t>()[r]));
    }
  }
  return out;
}

TEST(UpsertBatch, LastChangePerKeyWinsAcrossRowsAndDeletes) {
  iceberg::Schema schema = TableSchema();
  iceberg::Schema key_schema(0, {schema.fields()[0], schema.fields()[1]});
  auto batch = UpsertBatch::Make(schema, {1, 2});
  ASSERT_TRUE(batch.has_value());
  std::vector<RecordError> bad;
  // Records 0..5 put rows, 6..7 delete keys, 8..9 put rows again (two chunks of rows).
  ASSERT_TRUE(batch
                  ->AddRows(Decode(schema, R"({"region":"eu","id":1,"status":"created"}
{"region":"eu","id":2,"status":"created"}
{"region":"us","id":1,"status":"created"}
{"region":"eu","id":1,"status":"paid"}
)"),
                            {0, 1, 2, 3}, &bad)
                  .has_value());
  ASSERT_TRUE(batch
                  ->AddRows(Decode(schema, R"({"region":"eu","id":2,"status":"paid"}
{"region":"eu","id":3,"status":"created"}
{"region":"eu","id":3,"status":"shipped"}
{"region":"eu","id":9,"status":"created"}
)"),
                            {4, 5, 8, 9}, &bad)
                  .has_value());
  ASSERT_TRUE(batch
                  ->AddDeletes(Decode(key_schema, R"({"region":"eu","id":2}
{"region":"eu","id":3}
{"region":"eu","id":9}
)"),
                               {6, 7, 10}, &bad)
                  .has_value());
  EXPECT_TRUE(bad.empty());
  // eu/2 deleted after its update; eu/3 deleted then re-inserted; eu/9 inserted then deleted.
  EXPECT_EQ(Winners(*batch),
            (std::map<std::string, std::string>{{"eu/1", "paid"}, {"us/1", "created"}, {"eu/3", "shipped"}}));
  EXPECT_EQ(batch->keys_touched(), 5u);
  EXPECT_EQ(Touched(*batch), (std::multiset<std::string>{"eu/1", "eu/2", "eu/3", "eu/9", "us/1"}));
}

TEST(UpsertBatch, NullOrMissingKeyColumnsAreDeadLetters) {
  iceberg::Schema schema = TableSchema();
  iceberg::Schema key_schema(0, {schema.fields()[0], schema.fields()[1]});
  auto batch = UpsertBatch::Make(schema, {1, 2});
  ASSERT_TRUE(batch.has_value());
  std::vector<RecordError> bad;
  ASSERT_TRUE(batch
                  ->AddRows(Decode(schema, R"({"region":"eu","status":"created"}
{"region":null,"id":4,"status":"created"}
{"region":"eu","id":4,"status":"created"}
)"),
                            {0, 1, 2}, &bad)
                  .has_value());
  ASSERT_TRUE(batch->AddDeletes(Decode(key_schema, R"({"id":4})"), {3}, &bad).has_value());
  ASSERT_EQ(bad.size(), 3u);
  EXPECT_EQ(bad[0], (RecordError{0, "key column 'id' is missing or null"}));
  EXPECT_EQ(bad[1], (RecordError{1, "key column 'region' is missing or null"}));
  EXPECT_EQ(bad[2], (RecordError{3, "key column 'region' is missing or null"}));
  EXPECT_EQ(Winners(*batch), (std::map<std::string, std::string>{{"eu/4", "created"}}));
}

TEST(UpsertBatch, KeysMustBeTopLevelColumns) {
  EXPECT_FALSE(UpsertBatch::Make(TableSchema(), {}).has_value());
  EXPECT_FALSE(UpsertBatch::Make(TableSchema(), {42}).has_value());
}

}  // namespace
}  // namespace floe::stream

#include "sql/iceberg/batch_transform.h"

#include <gtest/gtest.h>

#include "formats/json/event_decoder.h"
#include "formats/json/iceberg_fields.h"
#include "iceberg/schema_json.h"

namespace floe::sql::iceberg_sql {
namespace {

constexpr std::string_view kEvents = R"json({"type":"struct","schema-id":0,"fields":[
  {"id":1,"name":"id","required":true,"type":"string"},
  {"id":2,"name":"type","required":true,"type":"string"},
  {"id":3,"name":"amount","required":false,"type":"double"},
  {"id":4,"name":"qty","required":false,"type":"string"},
  {"id":5,"name":"ts","required":false,"type":"timestamptz"}]})json";

iceberg::Schema EventSchema() { return *iceberg::SchemaFromJson(kEvents); }

formats::ColumnBatch Decode(std::string lines) {
  auto fields = formats::BatchFieldsFromSchema(EventSchema());
  auto decoder = formats::JsonEventDecoder::Make(*fields, formats::EpochUnit::kMillis);
  size_t size = lines.size();
  lines.append(formats::JsonEventDecoder::kPadding, '\0');
  (*decoder)->DecodeLines(std::string_view(lines.data(), size), 1);
  EXPECT_TRUE((*decoder)->errors().empty());
  return (*decoder)->TakeBatch();
}

const std::string kLines =
    R"({"id":"a","type":"paid","amount":10.5,"qty":"3","ts":"2026-01-02T03:04:05Z"})"
    "\n"
    R"({"id":"b","type":"created","amount":2,"qty":"x7"})"
    "\n"
    R"({"id":"c","type":"PAID","amount":null,"qty":"12"})"
    "\n"
    R"({"id":"d","type":"paid","amount":4,"qty":"oops","ts":0})"
    "\n";

std::unique_ptr<BatchTransform> Compile(std::string_view sql) {
  auto t = BatchTransform::Compile(sql, EventSchema());
  EXPECT_TRUE(t.has_value()) << sql << ": " << t.error().ToString();
  return t ? std::move(*t) : nullptr;
}

TEST(BatchTransform, ProjectsRenamesCastsAndFilters) {
  auto t = Compile(
      "SELECT id AS order_id, lower(type) AS kind, amount * 2 AS doubled, date_trunc('hour', ts) AS hour "
      "FROM events WHERE lower(type) = 'paid'");
  ASSERT_TRUE(t);
  const iceberg::Schema& out = t->output_schema();
  ASSERT_EQ(out.fields().size(), 4u);
  EXPECT_EQ(out.fields()[0].name, "order_id");
  EXPECT_EQ(out.fields()[0].type->ToString(), "string");
  EXPECT_EQ(out.fields()[2].type->ToString(), "double");
  EXPECT_EQ(out.fields()[3].type->ToString(), "timestamptz");
  EXPECT_FALSE(out.fields()[0].required);

  std::vector<RowFailure> failures;
  auto batches = t->Apply(Decode(kLines), &failures);
  ASSERT_TRUE(batches.has_value()) << batches.error().ToString();
  EXPECT_TRUE(failures.empty());
  int64_t rows = 0;
  std::vector<std::string> ids;
  for (const auto& b : *batches) {
    rows += b.num_rows;
    ASSERT_EQ(b.fields.size(), 4u);
    for (int64_t r = 0; r < b.num_rows; ++r) ids.emplace_back(b.columns[0].StringAt(r));
  }
  EXPECT_EQ(rows, 3);
  EXPECT_EQ(ids, (std::vector<std::string>{"a", "c", "d"}));
  const formats::ColumnBatch& b = batches->front();
  EXPECT_EQ(b.columns[1].StringAt(1), "paid");
  EXPECT_DOUBLE_EQ(b.columns[2].Data<double>()[0], 21.0);
  EXPECT_FALSE(b.columns[2].IsValid(1));  // null * 2
  EXPECT_EQ(b.columns[3].Data<int64_t>()[0], 1767322800000000);  // 2026-01-02T03:00:00Z
}

TEST(BatchTransform, RowsWhoseExpressionsFailAreReportedAndTheOthersKept) {
  auto t = Compile("SELECT id, CAST(qty AS bigint) AS qty FROM events");
  ASSERT_TRUE(t);
  std::vector<RowFailure> failures;
  auto batches = t->Apply(Decode(kLines), &failures);
  ASSERT_TRUE(batches.has_value()) << batches.error().ToString();
  ASSERT_EQ(failures.size(), 2u);
  EXPECT_EQ(failures[0].row, 1);
  EXPECT_EQ(failures[1].row, 3);
  EXPECT_NE(failures[0].message.find("x7"), std::string::npos) << failures[0].message;
  std::vector<int64_t> qty;
  for (const auto& b : *batches) {
    for (int64_t r = 0; r < b.num_rows; ++r) qty.push_back(b.columns[1].Data<int64_t>()[r]);
  }
  EXPECT_EQ(qty, (std::vector<int64_t>{3, 12}));
}

TEST(BatchTransform, RefusesWhatIsNotARowByRowSelectOverEvents) {
  for (const char* sql : {
           "SELECT count(*) AS n FROM events",
           "SELECT type, max(amount) AS m FROM events GROUP BY type",
           "SELECT id AS i FROM events ORDER BY id",
           "SELECT id AS i FROM events LIMIT 3",
           "SELECT DISTINCT type AS t FROM events",
           "SELECT a.id AS i FROM events a JOIN events b ON a.id = b.id",
           "SELECT id AS i, row_number() OVER (ORDER BY id) AS n FROM events",
           "SELECT id AS i FROM events WHERE id IN (SELECT id FROM events)",
           "SELECT id AS i FROM events UNION ALL SELECT id FROM events",
           "SELECT 1 AS one",
           "SELECT id AS i FROM orders",
           "SELECT id, id FROM events",
           "INSERT INTO events VALUES ('x')",
           "SELECT id FROM events; SELECT id FROM events",
       }) {
    auto t = BatchTransform::Compile(sql, EventSchema());
    EXPECT_FALSE(t.has_value()) << sql;
  }
  auto missing = BatchTransform::Compile("SELECT nope AS n FROM events", EventSchema());
  ASSERT_FALSE(missing.has_value());
  EXPECT_NE(missing.error().message().find("line 1:8"), std::string::npos) << missing.error().message();
}

TEST(BatchTransform, GarbageTruncatedAndOversizeSqlAreErrors) {
  std::string huge = "SELECT id AS i FROM events WHERE " + std::string(2'000'000, '(');
  for (std::string sql : {std::string(""), std::string("\xff\xfe garbage"), std::string("SELECT id AS i FROM ev"),
                          std::string("SELECT id AS i FROM events WHERE ("), huge}) {
    auto t = BatchTransform::Compile(sql, EventSchema());
    EXPECT_FALSE(t.has_value()) << sql.substr(0, 60);
  }
}

TEST(BatchTransform, AnEmptyBatchGivesNoRows) {
  auto t = Compile("SELECT id FROM events");
  ASSERT_TRUE(t);
  auto batches = t->Apply(Decode(""), nullptr);
  ASSERT_TRUE(batches.has_value());
  EXPECT_TRUE(batches->empty());
}

}  // namespace
}  // namespace floe::sql::iceberg_sql

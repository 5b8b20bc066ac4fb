// Struct columns through SQL over an Iceberg table: rows flow through scans, filters, joins and
// sorts as payload; field access (payload.customer, payload.geo.lat) reads them, with a null
// row making its fields null; whole rows print as Trino does; a struct that gained, lost and
// reordered fields since a file was written reads by field id.
#include <gtest/gtest.h>

#include "io/test_folder.h"
#include "sql/iceberg/iceberg_sql_catalog.h"
#include "sql/iceberg/scan_columns.h"
#include "sql/sql_session.h"

namespace floe::sql::iceberg_sql {
namespace {

using formats::ColumnBatch;
using formats::ColumnVector;
using formats::Field;
using formats::TypeId;

SqlType GeoType() { return SqlType::Row({RowField{"lat", SqlType::Double()}, RowField{"lon", SqlType::Double()}}); }
SqlType PayloadType() {
  return SqlType::Row({RowField{"customer", SqlType::Varchar()}, RowField{"amount", SqlType::Double()}, RowField{"geo", GeoType()}});
}

Field F(std::string name, formats::DataType type, int id = -1) { return Field{std::move(name), id, true, std::move(type)}; }

// Row i: payload null when i % 5 == 4; customer null when i % 7 == 3; geo null when i % 3 == 2.
ColumnBatch Rows(int64_t first, int64_t count) {
  formats::DataType geo = formats::StructType({F("lat", formats::Primitive(TypeId::kDouble)), F("lon", formats::Primitive(TypeId::kDouble))});
  formats::DataType payload = formats::StructType(
      {F("customer", formats::Primitive(TypeId::kString)), F("amount", formats::Primitive(TypeId::kDouble)), F("geo", geo)});
  ColumnBatch b = formats::MakeEmptyBatch({F("id", formats::Primitive(TypeId::kInt64)), F("payload", payload)});
  for (int64_t i = first; i < first + count; ++i) {
    b.columns[0].Append<int64_t>(i);
    ColumnVector& p = b.columns[1];
    if (i % 5 == 4) {
      p.AppendNull();
      continue;
    }
    if (i % 7 == 3) {
      p.children[0].AppendNull();
    } else {
      p.children[0].AppendString(fmt::format("c{}", i % 4));
    }
    p.children[1].Append<double>(static_cast<double>(i) / 2);
    ColumnVector& g = p.children[2];
    if (i % 3 == 2) {
      g.AppendNull();
    } else {
      g.children[0].Append<double>(static_cast<double>(i));
      g.children[1].Append<double>(-static_cast<double>(i));
      g.AppendStructSlot(true);
    }
    p.AppendStructSlot(true);
  }
  b.num_rows = count;
  return b;
}

class NestedColumnsTest : public ::testing::Test {
 protected:
  void SetUp() override {
    auto catalog = IcebergSqlCatalog::OpenWarehouse(io::testing::FreshFolder());
    ASSERT_TRUE(catalog.has_value()) << catalog.error().ToString();
    catalog_ = std::move(*catalog);
    ASSERT_TRUE(catalog_->CreateSchema("floe", "s").has_value());
    TableDefinition def;
    def.name = name_;
    def.columns = {{"id", SqlType::Bigint(), false}, {"payload", PayloadType()}};
    ASSERT_TRUE(catalog_->CreateTable(def).has_value());
    for (int64_t first : {0, 40}) {
      std::vector<ColumnBatch> batches;
      batches.push_back(Rows(first, 40));
      ASSERT_TRUE(catalog_->AppendRows(name_, std::move(batches)).has_value());
    }
  }

  std::vector<std::string> Query(const std::string& sql) {
    SqlSession session(*catalog_);
    QueryOptions options;
    options.threads = 3;
    auto results = session.Run(sql, options);
    EXPECT_TRUE(results.has_value()) << sql << ": " << results.error().ToString();
    std::vector<std::string> out;
    if (!results) return out;
    for (const auto& row : results->back().rows) {
      std::string line;
      for (size_t c = 0; c < row.size(); ++c) {
        if (c > 0) line.append(" | ");
        line.append(row[c].ToText());
      }
      out.push_back(line);
    }
    return out;
  }

  std::unique_ptr<IcebergSqlCatalog> catalog_;
  QualifiedTableName name_{"floe", "s", "t"};
};

TEST_F(NestedColumnsTest, FieldAccessReadsEachLevel) {
  EXPECT_EQ(Query("SELECT id, payload.customer, payload.amount, payload.geo.lat FROM s.t WHERE id IN (0, 2, 3, 4, 5) ORDER BY id"),
            (std::vector<std::string>{"0 | c0 | 0 | 0", "2 | c2 | 1 | NULL", "3 | NULL | 1.5 | 3", "4 | NULL | NULL | NULL", "5 | c1 | 2.5 | NULL"}));
  // Counts computed from the generator's rules over ids 0..79.
  int payloads = 0, customers = 0, geos = 0;
  double amount = 0;
  for (int i = 0; i < 80; ++i) {
    if (i % 5 == 4) continue;
    ++payloads;
    customers += i % 7 != 3;
    geos += i % 3 != 2;
    amount += i / 2.0;
  }
  EXPECT_EQ(Query("SELECT count(payload.customer), count(payload.geo.lon), count(*) FILTER (WHERE payload IS NOT NULL), sum(payload.amount) FROM s.t"),
            (std::vector<std::string>{fmt::format("{} | {} | {} | {}", customers, geos, payloads, amount)}));
}

TEST_F(NestedColumnsTest, RowsFlowThroughFiltersJoinsAndSorts) {
  EXPECT_EQ(Query("SELECT payload.customer, count(*) FROM s.t WHERE payload.geo.lat >= 60 GROUP BY 1 ORDER BY 1"),
            (std::vector<std::string>{"c0 | 3", "c1 | 1", "c2 | 2", "c3 | 3", "NULL | 2"}));
  EXPECT_EQ(Query("SELECT a.id, b.payload FROM s.t a JOIN s.t b ON a.id = b.id + 1 WHERE a.id BETWEEN 4 AND 6 ORDER BY b.payload.amount DESC"),
            (std::vector<std::string>{"6 | {customer=c1, amount=2.5, geo=NULL}", "4 | {customer=NULL, amount=1.5, geo={lat=3, lon=-3}}",
                                      "5 | NULL"}));
  EXPECT_EQ(Query("SELECT payload FROM s.t ORDER BY id LIMIT 2"),
            (std::vector<std::string>{"{customer=c0, amount=0, geo={lat=0, lon=-0}}", "{customer=c1, amount=0.5, geo={lat=1, lon=-1}}"}));
  // coalesce chooses a whole row: row 4's is null and gives way to row 1's.
  EXPECT_EQ(Query("SELECT a.id, coalesce(a.payload, b.payload) FROM s.t a, (SELECT payload FROM s.t WHERE id = 1) b "
                  "WHERE a.id IN (1, 4) ORDER BY a.id"),
            (std::vector<std::string>{"1 | {customer=c1, amount=0.5, geo={lat=1, lon=-1}}",
                                      "4 | {customer=c1, amount=0.5, geo={lat=1, lon=-1}}"}));
}

// Grouping by a whole row read from Parquet groups exactly as grouping by every field and
// whether the row and its inner row are null.
TEST_F(NestedColumnsTest, RowsGroupFieldByField) {
  auto by_row = Query("SELECT count(*), sum(n) FROM (SELECT payload, count(*) AS n FROM s.t GROUP BY payload) AS g");
  auto by_fields = Query(
      "SELECT count(*), sum(n) FROM (SELECT count(*) AS n FROM s.t GROUP BY payload IS NULL, payload.customer, "
      "payload.amount, payload.geo IS NULL, payload.geo.lat, payload.geo.lon) AS g");
  EXPECT_EQ(by_row, by_fields);
  EXPECT_EQ(by_row[0].substr(by_row[0].find('|')), "| 80");
  EXPECT_EQ(Query("SELECT count(DISTINCT payload) FROM s.t"),
            Query("SELECT count(*) FROM (SELECT DISTINCT payload FROM s.t WHERE payload IS NOT NULL) AS d"));
}

// A row read from Parquet equals itself unless a field at any depth is NULL (then = is NULL,
// as in Trino); IS NOT DISTINCT FROM holds for every row.
TEST_F(NestedColumnsTest, RowsCompareFieldByField) {
  EXPECT_EQ(Query("SELECT count(*) FROM s.t WHERE payload = payload"),
            Query("SELECT count(*) FROM s.t WHERE payload.customer IS NOT NULL AND payload.amount IS NOT NULL AND "
                  "payload.geo.lat IS NOT NULL AND payload.geo.lon IS NOT NULL"));
  EXPECT_EQ(Query("SELECT count(*) FROM s.t WHERE payload IS NOT DISTINCT FROM payload"),
            std::vector<std::string>{"80"});
  EXPECT_EQ(Query("SELECT count(*) FROM s.t a JOIN s.t b ON a.id = b.id + 1 WHERE a.payload = b.payload"),
            std::vector<std::string>{"0"});
}

// ORDER BY a row sorts field by field, a NULL (field or row) after every value.
TEST_F(NestedColumnsTest, RowsSortFieldByField) {
  EXPECT_EQ(
      Query("SELECT id FROM s.t ORDER BY payload, id"),
      Query("SELECT id FROM s.t ORDER BY payload IS NULL, payload.customer NULLS LAST, payload.amount NULLS LAST, "
            "payload.geo IS NULL, payload.geo.lat NULLS LAST, payload.geo.lon NULLS LAST, id"));
}

TEST_F(NestedColumnsTest, ComputingOnARowIsAClearError) {
  SqlSession session(*catalog_);
  for (const char* sql : {"SELECT payload.nope FROM s.t", "SELECT arbitrary(payload) FROM s.t",
                          "SELECT nullif(payload, payload) FROM s.t"}) {
    auto result = session.Run(sql);
    ASSERT_FALSE(result.has_value()) << sql;
    EXPECT_NE(result.error().message().find("row"), std::string::npos) << result.error().ToString();
  }
}

// A file's struct shaped by an older schema: field 4 was an int, field 5 is new, field 6 was
// dropped, and the order changed. The table's type wins, by field id.
TEST(NestedColumnsConvert, StructFieldsMatchByIdWithWideningAndNulls) {
  ColumnVector old(formats::StructType({F("a", formats::Primitive(TypeId::kInt32), 3), F("b", formats::Primitive(TypeId::kInt32), 4),
                                        F("gone", formats::Primitive(TypeId::kString), 6)}));
  for (int i = 0; i < 3; ++i) {
    if (i == 1) {
      old.AppendNull();
      continue;
    }
    old.children[0].Append<int32_t>(i);
    old.children[1].Append<int32_t>(10 * i);
    old.children[2].AppendString("x");
    old.AppendStructSlot(true);
  }
  formats::DataType now = formats::StructType({F("b", formats::Primitive(TypeId::kInt64), 4), F("new", formats::Primitive(TypeId::kString), 5),
                                               F("a", formats::Primitive(TypeId::kInt32), 3)});
  auto converted = ConvertVector(std::move(old), now);
  ASSERT_TRUE(converted.has_value()) << converted.error().ToString();
  ASSERT_EQ(converted->children.size(), 3u);
  EXPECT_EQ(converted->length, 3);
  EXPECT_FALSE(converted->IsValid(1));
  EXPECT_EQ(converted->children[0].type().id, TypeId::kInt64);
  EXPECT_EQ(converted->children[0].Data<int64_t>()[2], 20);
  EXPECT_EQ(converted->children[0].length, 3);
  EXPECT_FALSE(converted->children[1].IsValid(0));
  EXPECT_EQ(converted->children[1].length, 3);
  EXPECT_EQ(converted->children[2].Data<int32_t>()[2], 2);
}

}  // namespace
}  // namespace floe::sql::iceberg_sql

#include "iceberg/partition_split.h"

#include <gtest/gtest.h>

#include <map>
#include <random>

#include "iceberg/batch_conversion.h"

namespace floe::iceberg {
namespace {

using formats::ColumnBatch;

// ts timestamptz, region string (nullable), id long; the batch holds them in another order
// (region, ts) and has no id column at all.
struct Fixture {
  Schema schema{0,
                {NestedField{1, "ts", true, Type::Primitive(TypeId::kTimestampTz)},
                 NestedField{2, "region", false, Type::Primitive(TypeId::kString)},
                 NestedField{3, "id", false, Type::Primitive(TypeId::kLong)}}};
  ColumnBatch batch;
  std::vector<int> columns{1, 0, -1};

  explicit Fixture(int64_t rows) {
    auto fields = ToBatchFields(schema);
    batch = formats::MakeEmptyBatch({(*fields)[1], (*fields)[0]});
    std::mt19937_64 rng(11);
    const char* regions[] = {"eu", "us", "ap"};
    int64_t ts = int64_t{1767225600} * 1000000 - 7200 * int64_t{1000000};  // Two hours before 2026.
    for (int64_t r = 0; r < rows; ++r) {
      // Mostly ascending times with the odd late event from an earlier hour.
      ts += static_cast<int64_t>(rng() % 20000000);
      int64_t t = rng() % 50 == 0 ? ts - 3600 * int64_t{1000000} : ts;
      batch.columns[1].Append<int64_t>(t);
      if (rng() % 7 == 0) {
        batch.columns[0].AppendNull();
      } else {
        batch.columns[0].AppendString(regions[(r / 40) % 3]);
      }
    }
    batch.num_rows = rows;
  }

  // The partition of each row computed one row at a time, the definition SplitByPartition
  // must agree with.
  std::vector<Literal> Expected(const PartitionSpec& spec, int64_t row) const {
    std::vector<Literal> out;
    for (const PartitionField& pf : spec.fields()) {
      int c = -1;
      for (size_t i = 0; i < schema.fields().size(); ++i) {
        if (schema.fields()[i].id == pf.source_id) c = columns[i];
      }
      const Type& type = *schema.FindField(pf.source_id)->type;
      out.push_back(c < 0 ? Literal() : pf.transform.Apply(type, LiteralAt(batch.columns[static_cast<size_t>(c)], row, type)));
    }
    return out;
  }
};

void ExpectMatchesRowByRow(const Fixture& f, const PartitionSpec& spec) {
  std::vector<PartitionRows> parts = SplitByPartition(f.schema, spec, f.batch, f.columns);
  std::map<std::vector<Literal>, int> seen;
  int64_t total = 0;
  for (const PartitionRows& part : parts) {
    EXPECT_TRUE(seen.emplace(part.partition, 1).second) << "a partition is listed twice";
    for (size_t i = 0; i < part.rows.size(); ++i) {
      if (i > 0) {
        EXPECT_LT(part.rows[i - 1], part.rows[i]);
      }
      EXPECT_EQ(part.partition, f.Expected(spec, part.rows[i])) << "row " << part.rows[i];
    }
    total += static_cast<int64_t>(part.rows.size());
  }
  EXPECT_EQ(total, f.batch.num_rows);
}

TEST(SplitByPartition, AgreesWithTheTransformsRowByRow) {
  Fixture f(5000);
  auto spec = [](std::vector<std::pair<int32_t, Transform>> fields) {
    std::vector<PartitionField> out;
    for (size_t i = 0; i < fields.size(); ++i) {
      out.push_back({fields[i].first, kFirstPartitionFieldId + static_cast<int32_t>(i), "p" + std::to_string(i), fields[i].second});
    }
    return PartitionSpec(0, out);
  };
  ExpectMatchesRowByRow(f, spec({{1, Transform::Hour()}}));
  ExpectMatchesRowByRow(f, spec({{1, Transform::Day()}, {2, Transform::Identity()}}));
  ExpectMatchesRowByRow(f, spec({{1, Transform::Month()}, {1, Transform::Year()}}));
  ExpectMatchesRowByRow(f, spec({{1, Transform::Bucket(8)}}));
  ExpectMatchesRowByRow(f, spec({{2, Transform::Truncate(1)}, {3, Transform::Identity()}}));
  ExpectMatchesRowByRow(f, spec({{3, Transform::Bucket(4)}, {1, Transform::Void()}}));
}

TEST(SplitByPartition, AnUnpartitionedSpecKeepsEveryRowTogether) {
  Fixture f(100);
  auto parts = SplitByPartition(f.schema, PartitionSpec(0, {}), f.batch, f.columns);
  ASSERT_EQ(parts.size(), 1u);
  EXPECT_TRUE(parts[0].partition.empty());
  EXPECT_EQ(parts[0].rows.size(), 100u);
  Fixture empty(0);
  EXPECT_TRUE(SplitByPartition(empty.schema, PartitionSpec(0, {}), empty.batch, empty.columns).empty());
}

}  // namespace
}  // namespace floe::iceberg

// Drives the `floe table` subcommands end to end through the binary: create a partitioned
// table, append Parquet files, scan with filters, list snapshots, roll back, compact, expire,
// remove orphans; and TPC-H Q6 over the corpus lineitem table from `floe table scan` output.
#include <filesystem>
#include <fstream>
#include <set>
#include <sstream>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "formats/parquet/file_writer.h"
#include "formats/parquet/local_file.h"
#include "io/test_folder.h"
#include "support/child_process.h"
#include "support/run_process.h"

namespace floe::iceberg {
namespace {

using floe::testing::RunProcess;

std::vector<nlohmann::json> Lines(const std::string& text) {
  std::vector<nlohmann::json> out;
  std::istringstream in(text);
  std::string line;
  while (std::getline(in, line)) {
    if (!line.empty()) out.push_back(nlohmann::json::parse(line));
  }
  return out;
}

// Writes ids [lo, hi) with ts = day * 86400e6 + id and kind = "k<id % 3>".
void WriteEvents(const std::string& path, int64_t lo, int64_t hi, int day) {
  std::vector<formats::Field> fields = {
      {"id", 1, false, formats::Primitive(formats::TypeId::kInt64)},
      {"ts", 2, true, formats::Primitive(formats::TypeId::kTimestampTz)},
      {"kind", 3, true, formats::Primitive(formats::TypeId::kString)},
  };
  formats::ColumnBatch b = formats::MakeEmptyBatch(fields);
  for (int64_t id = lo; id < hi; ++id) {
    b.columns[0].Append<int64_t>(id);
    b.columns[1].Append<int64_t>(day * int64_t{86400} * 1000000 + id);
    b.columns[2].AppendString(fmt::format("k{}", id % 3));
  }
  b.num_rows = hi - lo;
  auto out = parquet::LocalOutputStream::Open(path);
  ASSERT_TRUE(out.has_value());
  auto writer = parquet::FileWriter::Open(std::move(*out), fields);
  ASSERT_TRUE(writer.has_value());
  ASSERT_TRUE((*writer)->Write(b).has_value());
  ASSERT_TRUE((*writer)->Close().has_value());
}

// The Iceberg schema of WriteEvents' files, written to `path`, which it returns.
std::string WriteEventSchema(const std::string& path) {
  std::ofstream(path) << R"js({"type":"struct","schema-id":0,"fields":[
      {"id":1,"name":"id","required":true,"type":"long"},
      {"id":2,"name":"ts","required":false,"type":"timestamptz"},
      {"id":3,"name":"kind","required":false,"type":"string"}]})js";
  return path;
}

class TableCliTest : public ::testing::Test {
 protected:
  floe::testing::ProcessOutput Floe(std::vector<std::string> args) {
    args.insert(args.begin(), floe::testing::FloeBinary());
    return RunProcess(args);
  }
  floe::testing::TempFolder dir_;
};

// A format v3 table (`--property format-version=3`): merge-on-read deletes write deletion
// vectors, a second delete in the same file merges into its vector, and compaction folds them.
TEST_F(TableCliTest, MergeOnReadDeletesOnAVersionThreeTableWriteDeletionVectors) {
  std::string wh = "file://" + dir_.path() + "/wh";
  std::string schema = WriteEventSchema(dir_.path() + "/schema.json");
  auto created = Floe({"table", "create", "db.v3", "--warehouse", wh, "--schema", schema, "--property", "format-version=3"});
  ASSERT_EQ(created.exit_code, 0) << created.err;
  WriteEvents(dir_.path() + "/a.parquet", 0, 100, 10);
  ASSERT_EQ(Floe({"table", "append", "db.v3", "--warehouse", wh, dir_.path() + "/a.parquet"}).exit_code, 0);
  auto described = Floe({"table", "describe", "db.v3", "--warehouse", wh});
  EXPECT_NE(described.out.find("v3"), std::string::npos) << described.out;
  for (const char* filter : {"id in (3, 5)", "id = 7 or id = 5"}) {
    auto del = Floe({"table", "delete", "db.v3", "--warehouse", wh, "--filter", filter, "--mode", "merge-on-read"});
    ASSERT_EQ(del.exit_code, 0) << del.err;
    EXPECT_NE(del.out.find("deletion vectors"), std::string::npos) << del.out;
  }
  auto rows = Lines(Floe({"table", "scan", "db.v3", "--warehouse", wh}).out);
  EXPECT_EQ(rows.size(), 97u);
  for (const auto& r : rows) EXPECT_TRUE(r["id"] != 3 && r["id"] != 5 && r["id"] != 7) << r;
  auto snaps = nlohmann::json::parse(Floe({"table", "snapshots", "db.v3", "--warehouse", wh, "--format", "json"}).out);
  EXPECT_EQ(snaps.back()["summary"]["added-dvs"], "1");
  EXPECT_EQ(snaps.back()["summary"]["removed-dvs"], "1");  // The first vector, merged into the second.
  EXPECT_EQ(snaps.back()["summary"]["total-position-deletes"], "3");
  auto compacted = Floe({"table", "compact", "db.v3", "--warehouse", wh});
  ASSERT_EQ(compacted.exit_code, 0) << compacted.err;
  EXPECT_EQ(Lines(Floe({"table", "scan", "db.v3", "--warehouse", wh}).out).size(), 97u);
  auto after = nlohmann::json::parse(Floe({"table", "snapshots", "db.v3", "--warehouse", wh, "--format", "json"}).out);
  EXPECT_EQ(after.back()["summary"]["total-delete-files"], "0") << after.back();
}

TEST_F(TableCliTest, CreateAppendScanAndMaintain) {
  std::string wh = "file://" + dir_.path() + "/wh";
  std::string schema = WriteEventSchema(dir_.path() + "/schema.json");
  auto created = Floe({"table", "create", "db.events", "--warehouse", wh, "--schema", schema, "--partition", "day(ts)",
                       "--partition", "bucket(4, id)"});
  ASSERT_EQ(created.exit_code, 0) << created.err;
  auto again = Floe({"table", "create", "db.events", "--warehouse", wh, "--schema", schema});
  EXPECT_NE(again.exit_code, 0);
  EXPECT_NE(again.err.find("already exists"), std::string::npos) << again.err;

  WriteEvents(dir_.path() + "/a.parquet", 0, 100, 10);
  WriteEvents(dir_.path() + "/b.parquet", 100, 150, 11);
  for (const char* f : {"/a.parquet", "/b.parquet"}) {
    auto appended = Floe({"table", "append", "db.events", "--warehouse", wh, dir_.path() + f});
    ASSERT_EQ(appended.exit_code, 0) << appended.err;
  }
  // JSON lines too; a bad line appends nothing and names its line.
  std::ofstream(dir_.path() + "/c.jsonl") << "{\"id\": 1000, \"ts\": \"1970-01-13T00:00:00Z\", \"kind\": \"json\"}\n"
                                           << "{\"id\": 1001, \"kind\": \"json\"}\n";
  auto json = Floe({"table", "append", "db.events", "--warehouse", wh, dir_.path() + "/c.jsonl"});
  ASSERT_EQ(json.exit_code, 0) << json.err;
  std::ofstream(dir_.path() + "/bad.jsonl") << "{\"id\": 1}\n{\"id\": \n";
  auto bad_json = Floe({"table", "append", "db.events", "--warehouse", wh, dir_.path() + "/bad.jsonl"});
  EXPECT_NE(bad_json.exit_code, 0);
  EXPECT_NE(bad_json.err.find("line 2"), std::string::npos) << bad_json.err;
  auto json_rows = Lines(Floe({"table", "scan", "db.events", "--warehouse", wh, "--filter", "kind = 'json'"}).out);
  ASSERT_EQ(json_rows.size(), 2u);
  EXPECT_TRUE(json_rows[0]["ts"].is_null() || json_rows[1]["ts"].is_null());
  ASSERT_EQ(Floe({"table", "rollback", "db.events", "--warehouse", wh, "--snapshot",
                  std::to_string(nlohmann::json::parse(Floe({"table", "snapshots", "db.events", "--warehouse", wh,
                                                             "--format", "json"}).out)[1]["snapshot-id"].get<int64_t>())})
                .exit_code,
            0);

  auto all = Floe({"table", "scan", "db.events", "--warehouse", wh});
  ASSERT_EQ(all.exit_code, 0) << all.err;
  auto rows = Lines(all.out);
  ASSERT_EQ(rows.size(), 150u);
  std::set<int64_t> ids;
  for (const auto& r : rows) ids.insert(r["id"].get<int64_t>());
  EXPECT_EQ(ids.size(), 150u);
  EXPECT_EQ(rows[0].size(), 3u);

  auto filtered = Floe({"table", "scan", "db.events", "--warehouse", wh, "--filter",
                        "ts >= '1970-01-12T00:00:00+00:00' and kind = 'k1'"});
  ASSERT_EQ(filtered.exit_code, 0) << filtered.err;
  auto frows = Lines(filtered.out);
  size_t expected = 0;
  for (int64_t id = 100; id < 150; ++id) expected += id % 3 == 1;
  EXPECT_EQ(frows.size(), expected);
  for (const auto& r : frows) EXPECT_EQ(r["kind"], "k1");

  // Row-level deletes, merge-on-read: position delete files, applied on read.
  auto del = Floe({"table", "delete", "db.events", "--warehouse", wh, "--filter", "id in (3, 5, 120) or id >= 148",
                   "--mode", "merge-on-read"});
  ASSERT_EQ(del.exit_code, 0) << del.err;
  EXPECT_NE(del.out.find("deleted 5 rows"), std::string::npos) << del.out;
  auto remaining = Lines(Floe({"table", "scan", "db.events", "--warehouse", wh}).out);
  EXPECT_EQ(remaining.size(), 145u);
  for (const auto& r : remaining) {
    int64_t id = r["id"];
    EXPECT_TRUE(id != 3 && id != 5 && id != 120 && id < 148) << id;
  }
  auto snaps_del = nlohmann::json::parse(Floe({"table", "snapshots", "db.events", "--warehouse", wh, "--format", "json"}).out);
  EXPECT_EQ(snaps_del.back()["operation"], "delete");
  EXPECT_EQ(snaps_del.back()["summary"]["added-position-deletes"], "5");
  // Then copy-on-write (the default): the files holding 148 and 149 are rewritten without them
  // (bucket(4, id) puts them with others), and the position deletes are applied on the way.
  auto cow = Floe({"table", "delete", "db.events", "--warehouse", wh, "--filter", "id >= 147 or id = 3"});
  ASSERT_EQ(cow.exit_code, 0) << cow.err;
  EXPECT_NE(cow.out.find("deleted 1 rows"), std::string::npos) << cow.out;  // 147: the rest were gone.
  auto after_cow = Lines(Floe({"table", "scan", "db.events", "--warehouse", wh}).out);
  EXPECT_EQ(after_cow.size(), 144u);
  for (const auto& r : after_cow) EXPECT_LT(r["id"].get<int64_t>(), 147);
  auto snaps_cow = nlohmann::json::parse(Floe({"table", "snapshots", "db.events", "--warehouse", wh, "--format", "json"}).out);
  EXPECT_EQ(snaps_cow.back()["operation"], "overwrite");
  // total-records counts data file records (position-deleted rows too): one fewer.
  EXPECT_EQ(snaps_cow.back()["summary"]["total-records"], "149");
  auto none = Floe({"table", "delete", "db.events", "--warehouse", wh, "--filter", "id = 3"});
  ASSERT_EQ(none.exit_code, 0) << none.err;
  EXPECT_NE(none.out.find("no rows match"), std::string::npos) << none.out;
  auto bad_mode = Floe({"table", "delete", "db.events", "--warehouse", wh, "--filter", "id = 1", "--mode", "nope"});
  EXPECT_NE(bad_mode.exit_code, 0);
  EXPECT_NE(bad_mode.err.find("copy-on-write or merge-on-read"), std::string::npos) << bad_mode.err;
  // Back to before the delete for the checks below.
  ASSERT_EQ(Floe({"table", "rollback", "db.events", "--warehouse", wh, "--snapshot",
                  std::to_string(snaps_del[1]["snapshot-id"].get<int64_t>())}).exit_code, 0);

  // The table is also reachable by its folder path.
  auto by_path = Floe({"table", "scan", dir_.path() + "/wh/db/events", "--filter", "id = 7", "--format", "table"});
  ASSERT_EQ(by_path.exit_code, 0) << by_path.err;
  EXPECT_NE(by_path.out.find("(1 rows)"), std::string::npos) << by_path.out;

  auto snaps = Floe({"table", "snapshots", "db.events", "--warehouse", wh, "--format", "json"});
  ASSERT_EQ(snaps.exit_code, 0) << snaps.err;
  auto list = nlohmann::json::parse(snaps.out);
  ASSERT_EQ(list.size(), 5u);  // Three appends and the two deletes rolled back.
  EXPECT_EQ(list[1]["summary"]["total-records"], "150");
  EXPECT_EQ(list[2]["summary"]["total-records"], "152");
  EXPECT_EQ(list[1]["operation"], "append");
  int64_t first = list[0]["snapshot-id"];

  // Compact the many small partition files, then check nothing changed but the file count.
  auto compact = Floe({"table", "compact", "db.events", "--warehouse", wh});
  ASSERT_EQ(compact.exit_code, 0) << compact.err;
  auto after = Lines(Floe({"table", "scan", "db.events", "--warehouse", wh}).out);
  EXPECT_EQ(after.size(), 150u);

  auto rollback = Floe({"table", "rollback", "db.events", "--warehouse", wh, "--snapshot", std::to_string(first)});
  ASSERT_EQ(rollback.exit_code, 0) << rollback.err;
  EXPECT_EQ(Lines(Floe({"table", "scan", "db.events", "--warehouse", wh}).out).size(), 100u);
  auto bad = Floe({"table", "rollback", "db.events", "--warehouse", wh, "--snapshot", "42"});
  EXPECT_NE(bad.exit_code, 0);

  // A retention under the 7-day minimum is refused (and deletes nothing) unless asked for
  // explicitly: a short one deletes files readers and writers in flight still need.
  size_t snapshots_before = nlohmann::json::parse(Floe({"table", "snapshots", "db.events", "--warehouse", wh, "--format", "json"}).out).size();
  ASSERT_GT(snapshots_before, 1u);
  auto refused = Floe({"table", "expire", "db.events", "--warehouse", wh, "--older-than", "0ms"});
  EXPECT_NE(refused.exit_code, 0);
  EXPECT_NE(refused.err.find("below the minimum"), std::string::npos) << refused.err;
  EXPECT_NE(Floe({"table", "expire", "db.events", "--warehouse", wh, "--older-than", "1h", "--min-retention", "0ms"}).exit_code, 0);
  EXPECT_EQ(nlohmann::json::parse(Floe({"table", "snapshots", "db.events", "--warehouse", wh, "--format", "json"}).out).size(),
            snapshots_before);
  auto expire = Floe({"table", "expire", "db.events", "--warehouse", wh, "--older-than", "0ms", "--unsafe-retention"});
  ASSERT_EQ(expire.exit_code, 0) << expire.err;
  auto snaps2 = nlohmann::json::parse(Floe({"table", "snapshots", "db.events", "--warehouse", wh, "--format", "json"}).out);
  EXPECT_EQ(snaps2.size(), 1u);  // Only the current one: the rest are older than 0 ms.
  EXPECT_EQ(Lines(Floe({"table", "scan", "db.events", "--warehouse", wh}).out).size(), 100u);

  // A stray file in the table folder is an orphan; referenced files are not. So is the
  // temporary file of a write whose process was killed, once it is older than the cut-off (a
  // younger one may be a write in progress).
  std::ofstream(dir_.path() + "/wh/db/events/data/stray.parquet") << "junk";
  const std::string unfinished = dir_.path() + "/wh/db/events/data/.floe-tmp-5eed-4d2-0";
  std::ofstream(unfinished) << "half a file";
  auto young = Floe({"table", "remove-orphans", "db.events", "--warehouse", wh, "--older-than", "1h", "--min-retention", "1h"});
  ASSERT_EQ(young.exit_code, 0) << young.err;
  EXPECT_TRUE(std::filesystem::exists(unfinished));
  auto orphans = Floe({"table", "remove-orphans", "db.events", "--warehouse", wh, "--older-than", "0ms", "--unsafe-retention"});
  ASSERT_EQ(orphans.exit_code, 0) << orphans.err;
  EXPECT_NE(orphans.out.find("stray.parquet"), std::string::npos) << orphans.out;
  EXPECT_NE(orphans.out.find(".floe-tmp-5eed-4d2-0"), std::string::npos) << orphans.out;
  EXPECT_FALSE(std::filesystem::exists(dir_.path() + "/wh/db/events/data/stray.parquet"));
  EXPECT_FALSE(std::filesystem::exists(unfinished));
  EXPECT_EQ(Lines(Floe({"table", "scan", "db.events", "--warehouse", wh}).out).size(), 100u);

  auto describe = Floe({"table", "describe", "db.events", "--warehouse", wh});
  ASSERT_EQ(describe.exit_code, 0);
  EXPECT_NE(describe.out.find("ts_day"), std::string::npos);
  EXPECT_NE(describe.out.find("bucket[4](id)"), std::string::npos) << describe.out;

  auto bad_filter = Floe({"table", "scan", "db.events", "--warehouse", wh, "--filter", "id <"});
  EXPECT_EQ(bad_filter.exit_code, 2);
  auto missing = Floe({"table", "scan", "db.nope", "--warehouse", wh});
  EXPECT_NE(missing.exit_code, 0);
}

// TPC-H Q6 over the Spark-written lineitem table, summed exactly from `floe table scan`.
TEST_F(TableCliTest, LineitemQ6Revenue) {
  std::string dir = io::testing::CorpusDir() + "/iceberg";
  ASSERT_TRUE(std::filesystem::exists(dir)) << "corpus not found at " << dir;
  auto out = Floe({"table", "scan", dir + "/iceberg/lineitem_iceberg", "--filter",
                   "l_shipdate >= date '1994-01-01' and l_shipdate < date '1995-01-01' and "
                   "l_discount between 0.05 and 0.07 and l_quantity < 24"});
  ASSERT_EQ(out.exit_code, 0) << out.err;
  // Decimal(15,2) * decimal(15,2) = scale 4, summed in integers.
  auto unscaled = [](const std::string& s) {
    int64_t v = 0;
    for (char c : s) {
      if (c >= '0' && c <= '9') v = v * 10 + (c - '0');
    }
    return s.starts_with("-") ? -v : v;
  };
  __int128 sum = 0;
  auto rows = Lines(out.out);
  for (const auto& r : rows) {
    sum += static_cast<__int128>(unscaled(r["l_extendedprice"])) * unscaled(r["l_discount"]);
  }
  EXPECT_EQ(rows.size(), 823u);
  EXPECT_EQ(static_cast<int64_t>(sum), 10775369101);  // 1077536.9101
}

}  // namespace
}  // namespace floe::iceberg

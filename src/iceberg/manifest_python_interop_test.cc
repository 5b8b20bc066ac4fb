// Debian's python3-avro (/usr/bin/python3), nobody's code here, reads the manifests and
// manifest lists floe writes and finds the spec's record names, field ids and header keys.
#include <unistd.h>

#include <filesystem>
#include <fstream>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "iceberg/manifest.h"
#include "support/run_process.h"

namespace floe::iceberg {
namespace {

constexpr const char* kPython = "/usr/bin/python3";

// Prints one JSON document: header keys, the names and field ids of every record in the
// schema, and the records themselves (bytes as lists of ints).
constexpr const char* kInspect = R"py(
import json, sys
from avro.datafile import DataFileReader
from avro.io import DatumReader
import warnings
warnings.simplefilter('ignore')
with open(sys.argv[1], 'rb') as f:
    r = DataFileReader(f, DatumReader())
    schema = json.loads(r.meta['avro.schema'].decode())
    names, ids = [], {}
    def walk(t, path):
        if isinstance(t, list):
            for b in t: walk(b, path)
        elif isinstance(t, dict):
            if t.get('type') == 'record':
                names.append(t['name'])
                for fl in t['fields']:
                    ids[path + fl['name']] = fl.get('field-id')
                    walk(fl['type'], path + fl['name'] + '.')
            elif t.get('type') == 'array':
                if 'element-id' in t: ids[path + 'element'] = t['element-id']
                walk(t['items'], path)
            elif t.get('type') == 'map':
                walk(t['values'], path)
    walk(schema, '')
    import datetime
    def clean(x):
        if isinstance(x, bytes): return list(x)
        if isinstance(x, datetime.date): return (x - datetime.date(1970, 1, 1)).days
        if isinstance(x, dict): return {k: clean(v) for k, v in x.items()}
        if isinstance(x, list): return [clean(v) for v in x]
        return x
    print(json.dumps({'meta': {k: v.decode() for k, v in r.meta.items() if not k.startswith('avro.')},
                      'names': names, 'ids': ids, 'records': [clean(x) for x in r]}))
)py";

class ManifestPythonTest : public ::testing::Test {
 protected:
  void SetUp() override {
    if (!std::filesystem::exists(kPython) ||
        floe::testing::RunProcess({kPython, "-c", "import avro.datafile"}).exit_code != 0) {
      GTEST_SKIP() << "Debian's python3-avro is not installed at " << kPython;
    }
    dir_ = std::filesystem::temp_directory_path() / fmt::format("floe-manifest-py-{}", getpid());
    std::filesystem::create_directories(dir_);
  }
  void TearDown() override {
    if (!dir_.empty()) std::filesystem::remove_all(dir_);
  }
  nlohmann::json Inspect(const std::string& bytes, const std::string& name) {
    auto path = dir_ / name;
    std::ofstream(path, std::ios::binary) << bytes;
    auto out = floe::testing::RunProcess({kPython, "-c", kInspect, path.string()});
    EXPECT_EQ(out.exit_code, 0) << out.err;
    return nlohmann::json::parse(out.out);
  }
  std::filesystem::path dir_;
};

TEST_F(ManifestPythonTest, ReadsOurManifestAndListWithTheSpecsNamesAndIds) {
  Schema schema(0, {NestedField{1, "id", true, Type::Primitive(TypeId::kLong)},
                    NestedField{2, "ts", false, Type::Primitive(TypeId::kTimestamp)}});
  PartitionSpec spec(0, {PartitionField{2, 1000, "ts_day", Transform::Day()}});
  DataFile f;
  f.file_path = "/t/data/a.parquet";
  f.partition = {Literal::Int(19500)};
  f.record_count = 42;
  f.file_size_in_bytes = 1234;
  f.value_counts = {{1, 42}, {2, 42}};
  f.lower_bounds = {{1, ToBinary(*Type::Primitive(TypeId::kLong), Literal::Long(7))}};
  ManifestWriteContext ctx{2, &schema, &spec, ManifestContent::kData, 99};
  auto m = WriteManifest(ctx, {ManifestEntry{EntryStatus::kAdded, {}, {}, {}, f}});
  ASSERT_TRUE(m.has_value()) << m.error().ToString();

  nlohmann::json doc = Inspect(m->bytes, "m.avro");
  EXPECT_EQ(doc["names"][0], "manifest_entry");
  EXPECT_EQ(doc["names"][1], "r2");
  EXPECT_EQ(doc["names"][2], "r102");
  EXPECT_NE(std::find(doc["names"].begin(), doc["names"].end(), "k119_v120"), doc["names"].end());
  const auto& ids = doc["ids"];
  EXPECT_EQ(ids["status"], 0);
  EXPECT_EQ(ids["snapshot_id"], 1);
  EXPECT_EQ(ids["sequence_number"], 3);
  EXPECT_EQ(ids["file_sequence_number"], 4);
  EXPECT_EQ(ids["data_file"], 2);
  EXPECT_EQ(ids["data_file.content"], 134);
  EXPECT_EQ(ids["data_file.file_path"], 100);
  EXPECT_EQ(ids["data_file.partition"], 102);
  EXPECT_EQ(ids["data_file.partition.ts_day"], 1000);
  EXPECT_EQ(ids["data_file.value_counts"], 109);
  EXPECT_EQ(ids["data_file.value_counts.key"], 119);
  EXPECT_EQ(ids["data_file.value_counts.value"], 120);
  EXPECT_EQ(ids["data_file.lower_bounds.key"], 126);
  EXPECT_EQ(ids["data_file.split_offsets.element"], 133);
  EXPECT_EQ(ids["data_file.equality_ids"], 135);
  EXPECT_EQ(ids["data_file.sort_order_id"], 140);
  EXPECT_EQ(doc["meta"]["content"], "data");
  EXPECT_EQ(doc["meta"]["format-version"], "2");
  EXPECT_EQ(doc["meta"]["partition-spec-id"], "0");
  EXPECT_EQ(nlohmann::json::parse(doc["meta"]["partition-spec"].get<std::string>())[0]["field-id"], 1000);
  EXPECT_EQ(nlohmann::json::parse(doc["meta"]["schema"].get<std::string>())["fields"][1]["name"], "ts");
  const auto& rec = doc["records"][0];
  EXPECT_EQ(rec["status"], 1);
  EXPECT_TRUE(rec["snapshot_id"].is_null());  // inherited from the manifest list
  EXPECT_EQ(rec["data_file"]["file_path"], "/t/data/a.parquet");
  EXPECT_EQ(rec["data_file"]["partition"]["ts_day"], 19500);
  EXPECT_EQ(rec["data_file"]["record_count"], 42);
  EXPECT_EQ(rec["data_file"]["lower_bounds"][0]["key"], 1);
  EXPECT_EQ(rec["data_file"]["lower_bounds"][0]["value"], nlohmann::json({7, 0, 0, 0, 0, 0, 0, 0}));

  ManifestFile record = m->record;
  record.manifest_path = "/t/metadata/m.avro";
  auto list = WriteManifestList(2, 99, std::nullopt, 3, {record});
  ASSERT_TRUE(list.has_value());
  nlohmann::json ldoc = Inspect(*list, "snap.avro");
  EXPECT_EQ(ldoc["names"][0], "manifest_file");
  EXPECT_EQ(ldoc["names"][1], "r508");
  const auto& lids = ldoc["ids"];
  for (auto [name, id] : std::vector<std::pair<std::string, int>>{
           {"manifest_path", 500}, {"manifest_length", 501}, {"partition_spec_id", 502}, {"content", 517},
           {"sequence_number", 515}, {"min_sequence_number", 516}, {"added_snapshot_id", 503},
           {"added_files_count", 504}, {"existing_files_count", 505}, {"deleted_files_count", 506},
           {"added_rows_count", 512}, {"existing_rows_count", 513}, {"deleted_rows_count", 514},
           {"partitions", 507}, {"partitions.element", 508}, {"partitions.contains_null", 509},
           {"partitions.contains_nan", 518}, {"partitions.lower_bound", 510}, {"partitions.upper_bound", 511},
           {"key_metadata", 519}}) {
    EXPECT_EQ(lids[name], id) << name;
  }
  EXPECT_EQ(ldoc["meta"]["snapshot-id"], "99");
  EXPECT_EQ(ldoc["meta"]["sequence-number"], "3");
  const auto& lrec = ldoc["records"][0];
  EXPECT_EQ(lrec["sequence_number"], 3);
  EXPECT_EQ(lrec["added_files_count"], 1);
  EXPECT_EQ(lrec["added_rows_count"], 42);
  EXPECT_EQ(lrec["partitions"][0]["contains_null"], false);
  EXPECT_EQ(lrec["partitions"][0]["lower_bound"], nlohmann::json({0x2c, 0x4c, 0, 0}));  // 19500 LE
}

}  // namespace
}  // namespace floe::iceberg

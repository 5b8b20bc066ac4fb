// Differential test against Debian's python3-avro (/usr/bin/python3), a reader and writer
// nobody here wrote: it reads our container files (null and deflate codecs, the ones it has)
// and writes files we read.
#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "formats/avro/binary_encoding.h"
#include "formats/avro/container_file.h"
#include "support/run_process.h"

namespace floe::avro {
namespace {

constexpr const char* kPython = "/usr/bin/python3";

class PythonAvroTest : public ::testing::Test {
 protected:
  void SetUp() override {
    if (!std::filesystem::exists(kPython) ||
        floe::testing::RunProcess({kPython, "-c", "import avro.datafile"}).exit_code != 0) {
      GTEST_SKIP() << "Debian's python3-avro is not installed at " << kPython;
    }
    dir_ = std::filesystem::temp_directory_path() / ("floe-avro-py-" + std::to_string(getpid()));
    std::filesystem::create_directories(dir_);
  }
  void TearDown() override {
    if (!dir_.empty()) std::filesystem::remove_all(dir_);
  }
  std::filesystem::path dir_;
};

constexpr std::string_view kSchema = R"js({
  "type": "record", "name": "r", "namespace": "floe.test",
  "fields": [
    {"name": "id", "type": "long", "field-id": 1},
    {"name": "name", "type": ["null", "string"], "default": null, "field-id": 2},
    {"name": "score", "type": "double", "field-id": 3},
    {"name": "tags", "type": {"type": "array", "items": "string", "element-id": 5}, "field-id": 4},
    {"name": "raw", "type": "bytes", "field-id": 6},
    {"name": "kind", "type": {"type": "enum", "name": "K", "symbols": ["A", "B"]}, "field-id": 7},
    {"name": "attrs", "type": {"type": "map", "values": "int", "key-id": 9, "value-id": 10}, "field-id": 8}
  ]})js";

constexpr const char* kReadScript = R"py(
import json, sys
from avro.datafile import DataFileReader
from avro.io import DatumReader
with open(sys.argv[1], 'rb') as f:
    r = DataFileReader(f, DatumReader())
    schema = json.loads(r.meta['avro.schema'].decode())
    print(json.dumps({'codec': r.meta.get('avro.codec', b'null').decode(),
                      'field_ids': [fl.get('field-id') for fl in schema['fields']],
                      'name': schema['name'], 'namespace': schema.get('namespace')}))
    for rec in r:
        rec['raw'] = list(rec['raw'])
        print(json.dumps(rec, sort_keys=True))
)py";

TEST_F(PythonAvroTest, PythonReadsWhatWeWrite) {
  for (Codec codec : {Codec::kNull, Codec::kDeflate}) {
    auto schema = AvroSchema::Parse(kSchema);
    ASSERT_TRUE(schema.has_value());
    ContainerWriter writer(std::move(*schema), codec);
    constexpr int kRows = 3000;
    for (int i = 0; i < kRows; ++i) {
      ASSERT_TRUE(writer
                      .Append(AvroValue::Record({
                          AvroValue::Long(int64_t{i} * 1000003),
                          i % 4 == 0 ? AvroValue::Null() : AvroValue::String(fmt::format("n{}", i)),
                          AvroValue::Double(i / 8.0),
                          AvroValue::Array({AvroValue::String("t"), AvroValue::String(std::to_string(i % 7))}),
                          AvroValue::Bytes(std::string(1, static_cast<char>(i % 256))),
                          AvroValue::Enum(i % 2, i % 2 ? "B" : "A"),
                          AvroValue::Map({"k"}, {AvroValue::Int(-i)}),
                      }))
                      .has_value());
    }
    auto bytes = writer.Finish();
    ASSERT_TRUE(bytes.has_value());
    auto path = dir_ / fmt::format("ours-{}.avro", CodecName(codec));
    std::ofstream(path, std::ios::binary) << *bytes;

    auto out = floe::testing::RunProcess({kPython, "-c", kReadScript, path.string()});
    ASSERT_EQ(out.exit_code, 0) << out.err;
    std::istringstream lines(out.out);
    std::string line;
    std::getline(lines, line);
    auto header = nlohmann::json::parse(line);
    EXPECT_EQ(header["codec"], std::string(CodecName(codec)));
    EXPECT_EQ(header["name"], "r");
    EXPECT_EQ(header["namespace"], "floe.test");
    EXPECT_EQ(header["field_ids"], nlohmann::json({1, 2, 3, 4, 6, 7, 8}));
    int i = 0;
    while (std::getline(lines, line)) {
      auto rec = nlohmann::json::parse(line);
      ASSERT_EQ(rec["id"], int64_t{i} * 1000003);
      if (i % 4 == 0) {
        EXPECT_TRUE(rec["name"].is_null());
      } else {
        EXPECT_EQ(rec["name"], fmt::format("n{}", i));
      }
      EXPECT_DOUBLE_EQ(rec["score"].get<double>(), i / 8.0);
      EXPECT_EQ(rec["tags"][1], std::to_string(i % 7));
      EXPECT_EQ(rec["raw"][0], i % 256);
      EXPECT_EQ(rec["kind"], i % 2 ? "B" : "A");
      EXPECT_EQ(rec["attrs"]["k"], -i);
      ++i;
    }
    EXPECT_EQ(i, kRows);
  }
}

constexpr const char* kWriteScript = R"py(
import sys, avro.schema
from avro.datafile import DataFileWriter
from avro.io import DatumWriter
schema = avro.schema.parse(sys.argv[2])
with open(sys.argv[1], 'wb') as f:
    w = DataFileWriter(f, DatumWriter(), schema, codec=sys.argv[3])
    for i in range(2500):
        w.append({'id': i, 'name': None if i % 3 == 0 else 'p%d' % i, 'score': i * 0.5,
                  'tags': ['x'] * (i % 3), 'raw': bytes([i % 256, 7]), 'kind': 'AB'[i % 2],
                  'attrs': {'a': i, 'b': 2}})
    w.close()
)py";

TEST_F(PythonAvroTest, WeReadWhatPythonWrites) {
  for (std::string codec : {"null", "deflate"}) {
    auto path = dir_ / ("py-" + codec + ".avro");
    auto run = floe::testing::RunProcess({kPython, "-c", kWriteScript, path.string(), std::string(kSchema), codec});
    ASSERT_EQ(run.exit_code, 0) << run.err;
    std::ifstream in(path, std::ios::binary);
    std::stringstream buf;
    buf << in.rdbuf();
    auto reader = ContainerReader::Open(buf.str(), path.string());
    ASSERT_TRUE(reader.has_value()) << reader.error().ToString();
    EXPECT_EQ(reader->schema().root().fields[3].type->element_id, 5);
    auto records = reader->ReadAll();
    ASSERT_TRUE(records.has_value()) << records.error().ToString();
    ASSERT_EQ(records->size(), 2500u);
    for (int i = 0; i < 2500; ++i) {
      const AvroValue& r = (*records)[i];
      ASSERT_EQ(r.items[0].i, i);
      EXPECT_EQ(r.items[1].is_null(), i % 3 == 0);
      if (i % 3) {
        EXPECT_EQ(r.items[1].s, fmt::format("p{}", i));
      }
      EXPECT_EQ(r.items[2].d, i * 0.5);
      EXPECT_EQ(r.items[3].items.size(), static_cast<size_t>(i % 3));
      EXPECT_EQ(r.items[4].s, std::string({static_cast<char>(i % 256), 7}));
      EXPECT_EQ(r.items[5].s, i % 2 ? "B" : "A");
      EXPECT_EQ(r.items[6].keys.size(), 2u);
    }
  }
}

}  // namespace
}  // namespace floe::avro

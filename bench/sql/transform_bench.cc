// The stream job's --transform (sql::iceberg_sql::BatchTransform) over N decoded events, the
// floe side of bench/sql_transform.bench.sh. Writes the events as JSON lines (DuckDB's input),
// decodes them in batches as the stream job does, and times only the transform.
//   sql_transform_bench N EVENTS.jsonl 'SELECT ... FROM events ...'
// Prints {"events":N,"rows":R,"seconds":S} (S: the transform's time alone, one thread).
#include <chrono>
#include <cstdio>
#include <fstream>
#include <string>

#include <fmt/chrono.h>
#include <fmt/format.h>

#include "base/allocator.h"
#include "formats/json/event_decoder.h"
#include "formats/json/iceberg_fields.h"
#include "iceberg/schema_json.h"
#include "sql/iceberg/batch_transform.h"

namespace floe {
namespace {

constexpr std::string_view kEventSchema = R"json({"type":"struct","schema-id":0,"fields":[
  {"id":1,"name":"id","required":false,"type":"long"},
  {"id":2,"name":"type","required":false,"type":"string"},
  {"id":3,"name":"amount","required":false,"type":"double"},
  {"id":4,"name":"qty","required":false,"type":"string"},
  {"id":5,"name":"ts","required":false,"type":"timestamptz"}]})json";
constexpr int64_t kBatchEvents = 100'000;  // Decoded rows per Apply, as a stream micro-batch would hold.

int Run(int64_t events, const std::string& path, const std::string& sql) {
  static constexpr const char* kTypes[] = {"created", "paid", "shipped", "cancelled"};
  std::string all;
  for (int64_t i = 0; i < events; ++i) {
    // Deterministic values; ts spans a few days in whole milliseconds.
    int64_t ms = 1'767'225'600'000 + i * 977;
    auto seconds = std::chrono::sys_seconds(std::chrono::seconds(ms / 1000));
    all += fmt::format(R"({{"id":{},"type":"{}","amount":{:.2f},"qty":"{}","ts":"{:%Y-%m-%dT%H:%M:%S}.{:03d}Z"}})", i,
                       kTypes[i % 4], static_cast<double>((i * 7919) % 50'000) / 100.0, (i * 31) % 1000, seconds,
                       static_cast<int>(ms % 1000));
    all += '\n';
  }
  std::ofstream(path) << all;

  auto schema = iceberg::SchemaFromJson(kEventSchema);
  if (!schema) return 1;
  auto fields = formats::BatchFieldsFromSchema(*schema);
  auto transform = sql::iceberg_sql::BatchTransform::Compile(sql, *schema);
  if (!fields || !transform) {
    fmt::print(stderr, "{}\n", !transform ? transform.error().ToString() : fields.error().ToString());
    return 1;
  }
  double seconds = 0;
  int64_t rows = 0;
  size_t pos = 0;
  while (pos < all.size()) {
    size_t end = pos;
    for (int64_t n = 0; n < kBatchEvents && end < all.size(); ++n) end = all.find('\n', end) + 1;
    std::string lines = all.substr(pos, end - pos);
    pos = end;
    size_t size = lines.size();
    lines.append(formats::JsonEventDecoder::kPadding, '\0');
    auto decoder = formats::JsonEventDecoder::Make(*fields, formats::EpochUnit::kMillis);
    (*decoder)->DecodeLines(std::string_view(lines.data(), size), 1);
    formats::ColumnBatch batch = (*decoder)->TakeBatch();
    std::vector<sql::iceberg_sql::RowFailure> failures;
    auto start = std::chrono::steady_clock::now();
    auto out = (*transform)->Apply(batch, &failures);
    seconds += std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    if (!out) {
      fmt::print(stderr, "{}\n", out.error().ToString());
      return 1;
    }
    for (const auto& b : *out) rows += b.num_rows;
  }
  fmt::print("{{\"events\":{},\"rows\":{},\"seconds\":{:.4f}}}\n", events, rows, seconds);
  return 0;
}

}  // namespace
}  // namespace floe

int main(int argc, char** argv) {
  floe::ConfigureAllocatorForBatches(argv, floe::HugePages::kEveryThread);
  if (argc != 4) {
    std::fprintf(stderr, "usage: sql_transform_bench N EVENTS.jsonl SQL\n");
    return 2;
  }
  return floe::Run(std::stoll(argv[1]), argv[2], argv[3]);
}

// Parquet benchmarks driven by bench/parquet.bench.sh, which runs DuckDB on the same files in
// the same run and prints the ratios.
//   parquet_bench generate OUT.parquet ROWS      write order events with floe (zstd)
//   parquet_bench jsonl OUT.jsonl ROWS           the same events as JSON lines
//   parquet_bench scan FILE [REPEAT]             full scan: sum of every column, best time
//   parquet_bench stages IN.jsonl OUT.parquet    ingest split into its stages (JSON decode,
//                                                Parquet encode and write), to see where time goes
//   parquet_bench decode IN.jsonl [REPEAT]       the JSON decode alone, batches dropped as made
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <string>

#include <fmt/format.h>

#include "base/allocator.h"
#include "formats/json/event_decoder.h"
#include "formats/parquet/file_reader.h"
#include "formats/parquet/file_writer.h"
#include "formats/parquet/json_rows.h"
#include "formats/parquet/local_file.h"
#include "order_events.h"

using namespace floe;

namespace {

double Seconds(std::chrono::steady_clock::time_point since) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - since).count();
}

int Generate(const std::string& path, int64_t rows) {
  auto fields = bench::OrderEventFields();
  auto out = parquet::LocalOutputStream::Open(path);
  if (!out) return 1;
  parquet::WriterOptions options;
  auto writer = parquet::FileWriter::Open(std::move(*out), fields, options);
  if (!writer) return 1;
  bench::OrderEventGenerator gen(42);
  for (int64_t done = 0; done < rows;) {
    int64_t n = std::min<int64_t>(rows - done, 65536);
    auto batch = formats::MakeEmptyBatch(fields);
    for (int64_t r = 0; r < n; ++r) {
      bench::OrderEvent e = gen.Next();
      batch.columns[0].AppendString(e.order_id);
      batch.columns[1].Append<int64_t>(e.event_time_us);
      batch.columns[2].AppendString(e.status);
      batch.columns[3].AppendString(e.region);
      batch.columns[4].Append<int64_t>(e.customer_id);
      batch.columns[5].Append<int64_t>(e.product_id);
      batch.columns[6].Append<int32_t>(e.quantity);
      batch.columns[7].Append<double>(e.price);
      batch.columns[8].AppendString(e.currency);
      if (e.coupon) {
        batch.columns[9].AppendString(e.coupon);
      } else {
        batch.columns[9].AppendNull();
      }
    }
    batch.num_rows = n;
    if (auto s = (*writer)->Write(batch); !s) {
      fmt::print(stderr, "{}\n", s.error().ToString());
      return 1;
    }
    done += n;
  }
  auto m = (*writer)->Close();
  if (!m) {
    fmt::print(stderr, "{}\n", m.error().ToString());
    return 1;
  }
  return 0;
}

int Jsonl(const std::string& path, int64_t rows) {
  FILE* f = std::fopen(path.c_str(), "w");
  if (!f) return 1;
  bench::OrderEventGenerator gen(42);
  std::string line;
  for (int64_t i = 0; i < rows; ++i) {
    bench::OrderEvent e = gen.Next();
    line.clear();
    fmt::format_to(std::back_inserter(line),
                   "{{\"order_id\":\"{}\",\"event_time\":\"{}Z\",\"status\":\"{}\",\"region\":\"{}\",\"customer_id\":{},"
                   "\"product_id\":{},\"quantity\":{},\"price\":{},\"currency\":\"{}\"",
                   e.order_id, parquet::FormatTimestampMicros(e.event_time_us), e.status, e.region, e.customer_id,
                   e.product_id, e.quantity, e.price, e.currency);
    if (e.coupon) {
      fmt::format_to(std::back_inserter(line), ",\"coupon\":\"{}\"}}\n", e.coupon);
    } else {
      line += ",\"coupon\":null}\n";
    }
    std::fwrite(line.data(), 1, line.size(), f);
  }
  return std::fclose(f) == 0 ? 0 : 1;
}

// The file's text, followed by the decoder's padding.
std::string ReadPadded(const std::string& input) {
  std::string text;
  FILE* in = std::fopen(input.c_str(), "rb");
  if (!in) return text;
  char block[1 << 16];
  for (size_t n; (n = std::fread(block, 1, sizeof block, in)) > 0;) text.append(block, n);
  std::fclose(in);
  text.append(formats::JsonEventDecoder::kPadding, ' ');
  return text;
}

// Decodes in 8 MiB blocks, dropping each 64 Ki-row batch: the decoder's steady state.
int Decode(const std::string& input, int repeat) {
  std::string text = ReadPadded(input);
  auto decoder = formats::JsonEventDecoder::Make(bench::OrderEventFields());
  if (!decoder) return 1;
  double best = 1e100;
  int64_t rows = 0;
  for (int i = 0; i < repeat; ++i) {
    std::string_view lines(text.data(), text.size() - formats::JsonEventDecoder::kPadding);
    auto start = std::chrono::steady_clock::now();
    int64_t line = 1;
    rows = 0;
    while (!lines.empty()) {
      size_t cut = lines.size() > (8 << 20) ? lines.rfind('\n', 8 << 20) + 1 : lines.size();
      line += (*decoder)->DecodeLines(lines.substr(0, cut), line);
      lines.remove_prefix(cut);
      if ((*decoder)->buffered_rows() >= (64 << 10) || lines.empty()) rows += (*decoder)->TakeBatch().num_rows;
    }
    best = std::min(best, Seconds(start));
  }
  fmt::print("{{\"seconds\":{:.6f},\"rows\":{}}}\n", best, rows);
  return 0;
}

// Decodes the whole file into batches first, then writes them: each stage timed on its own.
int Stages(const std::string& input, const std::string& output) {
  auto fields = bench::OrderEventFields();
  auto decoder = formats::JsonEventDecoder::Make(fields);
  if (!decoder) return 1;
  std::string text = ReadPadded(input);
  std::string_view lines(text.data(), text.size() - formats::JsonEventDecoder::kPadding);
  auto start = std::chrono::steady_clock::now();
  std::vector<formats::ColumnBatch> batches;
  int64_t line = 1;
  while (!lines.empty()) {
    size_t cut = lines.size() > (8 << 20) ? lines.rfind('\n', 8 << 20) + 1 : lines.size();
    line += (*decoder)->DecodeLines(lines.substr(0, cut), line);
    lines.remove_prefix(cut);
    if ((*decoder)->buffered_rows() >= (64 << 10) || lines.empty()) batches.push_back((*decoder)->TakeBatch());
  }
  double decode = Seconds(start);
  start = std::chrono::steady_clock::now();
  auto out = parquet::LocalOutputStream::Open(output);
  if (!out) return 1;
  auto writer = parquet::FileWriter::Open(std::move(*out), fields, parquet::WriterOptions{});
  if (!writer) return 1;
  for (const auto& batch : batches) {
    if (auto s = (*writer)->Write(batch); !s) {
      fmt::print(stderr, "{}\n", s.error().ToString());
      return 1;
    }
  }
  if (auto m = (*writer)->Close(); !m) return 1;
  double write = Seconds(start);
  fmt::print("{{\"decode_seconds\":{:.6f},\"write_seconds\":{:.6f},\"lines\":{}}}\n", decode, write, line - 1);
  return 0;
}

// Sums every column: numbers by value, strings by byte length; nulls add nothing.
constexpr int64_t kBatchRows = 8192;

struct Sums {
  double total = 0;
  int64_t rows = 0;
};

Result<Sums> Scan(const std::string& path) {
  FLOE_ASSIGN_OR_RETURN(auto file, parquet::LocalInputFile::Open(path));
  FLOE_ASSIGN_OR_RETURN(auto reader, parquet::FileReader::Open(std::move(file)));
  Sums sums;
  std::vector<__int128> isum(16, 0);
  std::vector<double> dsum(16, 0);
  for (int g = 0; g < reader->num_row_groups(); ++g) {
   FLOE_ASSIGN_OR_RETURN(auto row_group, reader->OpenRowGroup(g));
   while (true) {
    FLOE_ASSIGN_OR_RETURN(std::optional<formats::ColumnBatch> next, row_group->Next(kBatchRows));
    if (!next) break;
    const formats::ColumnBatch& batch = *next;
    sums.rows += batch.num_rows;
    for (size_t c = 0; c < batch.columns.size(); ++c) {
      const formats::ColumnVector& v = batch.columns[c];
      const bool nulls = !v.validity.empty();
      switch (v.type().id) {
        case formats::TypeId::kString:
        case formats::TypeId::kBinary: {
          // Byte length of the present values: the offsets say it all.
          __int128 s = 0;
          const int32_t* o = v.offsets.data();
          for (int64_t i = 0; i < v.length; ++i) s += o[i + 1] - o[i];
          isum[c] += s;
          break;
        }
        case formats::TypeId::kInt32:
        case formats::TypeId::kDate: {
          const int32_t* d = v.Data<int32_t>();
          __int128 s = 0;
          if (nulls) {
            for (int64_t i = 0; i < v.length; ++i) s += v.validity[static_cast<size_t>(i)] ? d[i] : 0;
          } else {
            for (int64_t i = 0; i < v.length; ++i) s += d[i];
          }
          isum[c] += s;
          break;
        }
        case formats::TypeId::kDouble: {
          const double* d = v.Data<double>();
          double s = 0;
          for (int64_t i = 0; i < v.length; ++i) s += (!nulls || v.validity[static_cast<size_t>(i)]) ? d[i] : 0;
          dsum[c] += s;
          break;
        }
        default: {
          const int64_t* d = v.Data<int64_t>();
          __int128 s = 0;
          if (nulls) {
            for (int64_t i = 0; i < v.length; ++i) s += v.validity[static_cast<size_t>(i)] ? d[i] : 0;
          } else {
            for (int64_t i = 0; i < v.length; ++i) s += d[i];
          }
          isum[c] += s;
          break;
        }
      }
    }
   }
  }
  for (size_t c = 0; c < isum.size(); ++c) sums.total += static_cast<double>(isum[c]) + dsum[c];
  return sums;
}

}  // namespace

int main(int argc, char** argv) {
  floe::ConfigureAllocatorForBatches(argv, floe::HugePages::kMainThread);
  if (argc < 3) {
    fmt::print(stderr, "usage: parquet_bench generate|jsonl|scan|stages|decode ...\n");
    return 2;
  }
  std::string mode = argv[1];
  if (mode == "generate" && argc == 4) return Generate(argv[2], std::atoll(argv[3]));
  if (mode == "jsonl" && argc == 4) return Jsonl(argv[2], std::atoll(argv[3]));
  if (mode == "stages" && argc == 4) return Stages(argv[2], argv[3]);
  if (mode == "decode" && argc >= 3) return Decode(argv[2], argc > 3 ? std::atoi(argv[3]) : 3);
  if (mode == "scan") {
    int repeat = argc > 3 ? std::atoi(argv[3]) : 3;
    double best = 1e100;
    Sums sums;
    for (int i = 0; i < repeat; ++i) {
      auto start = std::chrono::steady_clock::now();
      auto s = Scan(argv[2]);
      double t = Seconds(start);
      if (!s) {
        fmt::print(stderr, "{}\n", s.error().ToString());
        return 1;
      }
      sums = *s;
      best = std::min(best, t);
    }
    fmt::print("{{\"seconds\":{:.6f},\"rows\":{},\"checksum\":{:.6e}}}\n", best, sums.rows, sums.total);
    return 0;
  }
  fmt::print(stderr, "usage: parquet_bench generate|jsonl|scan|stages|decode ...\n");
  return 2;
}

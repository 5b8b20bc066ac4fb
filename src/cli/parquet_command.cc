// `floe parquet`: inspect and write Parquet files (src/formats/parquet).
#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstring>

#include <nlohmann/json.hpp>

#include "cli/command.h"
#include "formats/json/event_decoder.h"
#include "formats/json/iceberg_fields.h"
#include "formats/parquet/compression.h"
#include "formats/parquet/file_reader.h"
#include "formats/parquet/file_writer.h"
#include "formats/parquet/json_rows.h"
#include "formats/parquet/local_file.h"
#include "iceberg/schema_json.h"

namespace floe::cli {
namespace {

using parquet::FileReader;

Result<std::unique_ptr<FileReader>> OpenReader(const std::string& path) {
  FLOE_ASSIGN_OR_RETURN(auto file, parquet::LocalInputFile::Open(path));
  return FileReader::Open(std::move(file));
}

// A statistic's plain-encoded bound as JSON in the column's logical terms.
nlohmann::json StatValue(const parquet::LeafColumn& leaf, const std::string& plain) {
  using formats::TypeId;
  auto fixed = [&](auto zero) -> nlohmann::json {
    decltype(zero) v;
    if (plain.size() != sizeof(v)) return nullptr;
    std::memcpy(&v, plain.data(), sizeof(v));
    return v;
  };
  TypeId id = leaf.node->type.id;
  switch (leaf.physical) {
    case parquet::PhysicalType::kBoolean: return plain.size() == 1 ? nlohmann::json(plain[0] != 0) : nlohmann::json(nullptr);
    case parquet::PhysicalType::kInt32:
      if (id == TypeId::kDate && plain.size() == 4) {
        int32_t d;
        std::memcpy(&d, plain.data(), 4);
        return parquet::FormatDate(d);
      }
      return fixed(int32_t{});
    case parquet::PhysicalType::kInt64:
      if ((id == TypeId::kTimestamp || id == TypeId::kTimestampTz) && plain.size() == 8 &&
          leaf.logical.unit == parquet::TimeUnit::kMicros) {
        int64_t t;
        std::memcpy(&t, plain.data(), 8);
        return parquet::FormatTimestampMicros(t);
      }
      return fixed(int64_t{});
    case parquet::PhysicalType::kFloat: return fixed(float{});
    case parquet::PhysicalType::kDouble: return fixed(double{});
    default:
      break;
  }
  if (id == TypeId::kString) {
    std::string s;
    parquet::AppendJsonString(plain, &s);
    return nlohmann::json::parse(s);
  }
  std::string hex;
  for (unsigned char c : plain) hex += fmt::format("{:02x}", c);
  return "0x" + hex;
}

std::string LogicalName(const parquet::LeafColumn& leaf) {
  const formats::DataType& t = leaf.node->type;
  if (t.id == formats::TypeId::kDecimal) return fmt::format("decimal({}, {})", t.precision, t.scale);
  if (t.id == formats::TypeId::kFixed) return fmt::format("fixed[{}]", t.width);
  return std::string(formats::TypeIdName(t.id));
}

int RunMeta(const std::string& path) {
  auto reader = OpenReader(path);
  if (!reader) {
    fmt::print(stderr, "floe parquet meta: {}\n", reader.error().ToString());
    return kExitFailure;
  }
  const auto& md = (*reader)->metadata();
  const auto& schema = (*reader)->schema();
  nlohmann::ordered_json out;
  out["file"] = path;
  out["version"] = md.version;
  out["created_by"] = md.created_by;
  out["num_rows"] = md.num_rows;
  out["num_row_groups"] = md.row_groups.size();
  nlohmann::ordered_json columns = nlohmann::json::array();
  for (const auto& leaf : schema.leaves()) {
    nlohmann::ordered_json c;
    c["path"] = fmt::format("{}", fmt::join(leaf.path, "."));
    c["field_id"] = leaf.node->field_id;
    c["physical_type"] = parquet::PhysicalTypeName(leaf.physical);
    if (leaf.physical == parquet::PhysicalType::kFixedLenByteArray) c["type_length"] = leaf.type_length;
    c["type"] = LogicalName(leaf);
    c["nullable"] = leaf.max_def > 0;
    c["max_definition_level"] = leaf.max_def;
    c["max_repetition_level"] = leaf.max_rep;
    columns.push_back(c);
  }
  out["columns"] = columns;
  nlohmann::ordered_json kv = nlohmann::json::object();
  for (const auto& e : md.key_value_metadata) kv[e.key] = e.value ? nlohmann::json(*e.value) : nlohmann::json(nullptr);
  out["key_value_metadata"] = kv;
  nlohmann::ordered_json groups = nlohmann::json::array();
  for (size_t g = 0; g < md.row_groups.size(); ++g) {
    const auto& rg = md.row_groups[g];
    nlohmann::ordered_json jg;
    jg["index"] = g;
    jg["num_rows"] = rg.num_rows;
    jg["total_byte_size"] = rg.total_byte_size;
    nlohmann::ordered_json chunks = nlohmann::json::array();
    for (size_t c = 0; c < rg.columns.size(); ++c) {
      const auto& m = *rg.columns[c].meta_data;
      const auto& leaf = schema.leaves()[c];
      nlohmann::ordered_json jc;
      jc["path"] = fmt::format("{}", fmt::join(m.path_in_schema, "."));
      jc["codec"] = parquet::CodecName(m.codec);
      nlohmann::json encodings = nlohmann::json::array();
      for (auto e : m.encodings) encodings.push_back(parquet::EncodingName(e));
      jc["encodings"] = encodings;
      jc["num_values"] = m.num_values;
      jc["compressed_size"] = m.total_compressed_size;
      jc["uncompressed_size"] = m.total_uncompressed_size;
      jc["data_page_offset"] = m.data_page_offset;
      if (m.dictionary_page_offset) jc["dictionary_page_offset"] = *m.dictionary_page_offset;
      if (m.statistics) {
        nlohmann::ordered_json s;
        if (m.statistics->null_count) s["null_count"] = *m.statistics->null_count;
        if (m.statistics->min_value) s["min"] = StatValue(leaf, *m.statistics->min_value);
        if (m.statistics->max_value) s["max"] = StatValue(leaf, *m.statistics->max_value);
        jc["statistics"] = s;
      }
      jc["page_index"] = rg.columns[c].column_index_offset.has_value() && rg.columns[c].offset_index_offset.has_value();
      if (m.bloom_filter_offset) jc["bloom_filter_offset"] = *m.bloom_filter_offset;
      chunks.push_back(jc);
    }
    jg["columns"] = chunks;
    groups.push_back(jg);
  }
  out["row_groups"] = groups;
  fmt::print("{}\n", out.dump(2));
  return kExitOk;
}

int RunCat(const std::string& path, const std::string& columns, int64_t limit) {
  auto reader = OpenReader(path);
  if (!reader) {
    fmt::print(stderr, "floe parquet cat: {}\n", reader.error().ToString());
    return kExitFailure;
  }
  std::vector<int> fields;
  if (!columns.empty()) {
    std::vector<std::string> names;
    size_t start = 0;
    while (start <= columns.size()) {
      size_t comma = columns.find(',', start);
      if (comma == std::string::npos) comma = columns.size();
      names.push_back(columns.substr(start, comma - start));
      start = comma + 1;
    }
    auto resolved = (*reader)->ResolveColumns(names);
    if (!resolved) {
      fmt::print(stderr, "floe parquet cat: {}\n", resolved.error().ToString());
      return kExitUsage;
    }
    fields = *resolved;
  }
  int64_t printed = 0;
  std::string out;
  auto fail = [&out](const Error& e) {
    std::fwrite(out.data(), 1, out.size(), stdout);
    fmt::print(stderr, "floe parquet cat: {}\n", e.ToString());
    return kExitFailure;
  };
  // Row groups are streamed in batches, as the query engine reads them: memory stays near a
  // page per column rather than a whole row group.
  constexpr int64_t kBatchRows = 8192;
  for (int g = 0; g < (*reader)->num_row_groups() && (limit < 0 || printed < limit); ++g) {
    auto row_group = (*reader)->OpenRowGroup(g, fields);
    if (!row_group) return fail(row_group.error());
    while (limit < 0 || printed < limit) {
      auto batch = (*row_group)->Next(kBatchRows);
      if (!batch) return fail(batch.error());
      if (!*batch) break;
      for (int64_t r = 0; r < (*batch)->num_rows && (limit < 0 || printed < limit); ++r, ++printed) {
        parquet::AppendRowJson(**batch, r, &out);
        out.push_back('\n');
        if (out.size() > (1 << 16)) {
          std::fwrite(out.data(), 1, out.size(), stdout);
          out.clear();
        }
      }
    }
  }
  std::fwrite(out.data(), 1, out.size(), stdout);
  return kExitOk;
}

Result<std::string> ReadWholeFile(const std::string& path) {
  FLOE_ASSIGN_OR_RETURN(auto file, parquet::LocalInputFile::Open(path));
  return file->ReadAt(0, file->Size());
}

// Decodes blocks of JSON lines and writes the rows with the Parquet writer, a batch at a time;
// bad lines are reported on stderr with their line numbers and skipped.
class JsonLinesWriter {
 public:
  static constexpr size_t kBlock = 1 << 20;  // Fits in L2 with the decoder's working set.
  static constexpr int64_t kBatchRows = 64 << 10;

  JsonLinesWriter(const std::string& input, formats::JsonEventDecoder& decoder, parquet::FileWriter& writer)
      : input_(input), decoder_(decoder), writer_(writer) {}

  // Decodes `text`, whole lines followed by JsonEventDecoder::kPadding readable bytes; `last`
  // writes out what is buffered.
  Status Feed(std::string_view text, bool last) {
    line_ += decoder_.DecodeLines(text, line_);
    for (const auto& e : decoder_.errors()) fmt::print(stderr, "{}:{}: {}\n", input_, e.line, e.message);
    failed_ += static_cast<int64_t>(decoder_.errors().size());
    decoder_.ClearErrors();
    if (decoder_.buffered_rows() >= kBatchRows || last) {
      formats::ColumnBatch batch = decoder_.TakeBatch();
      FLOE_RETURN_IF_ERROR(writer_.Write(batch));
    }
    return OkStatus();
  }
  int64_t line() const { return line_; }
  int64_t failed() const { return failed_; }

 private:
  const std::string& input_;
  formats::JsonEventDecoder& decoder_;
  parquet::FileWriter& writer_;
  int64_t line_ = 1;
  int64_t failed_ = 0;
};

// The input is read in blocks ending at line breaks (a line may not outgrow 256 MiB). Reading
// beats mapping the file: a block copied in by read() is still in the CPU caches when the
// decoder goes over it, where a mapped file faults each page in and the decoder's first pass
// waits on memory (about 13% of the whole write).
Status WriteLines(const std::string& input, JsonLinesWriter& out) {
  constexpr size_t kBlock = JsonLinesWriter::kBlock;
  FILE* in = std::fopen(input.c_str(), "rb");
  if (in == nullptr) return ErrnoError(errno, "open", input);
  std::unique_ptr<FILE, int (*)(FILE*)> closer(in, std::fclose);
  std::string buffer;
  size_t carried = 0;  // Bytes of an unfinished line kept from the previous block.
  bool eof = false;
  while (!eof) {
    buffer.resize(carried + kBlock + formats::JsonEventDecoder::kPadding);
    size_t got = std::fread(buffer.data() + carried, 1, kBlock, in);
    if (got < kBlock) {
      if (std::ferror(in)) return IoError("reading {}", input);
      eof = true;
    }
    size_t size = carried + got;
    size_t complete = size;
    if (!eof) {
      const void* nl = memrchr(buffer.data() + carried, '\n', got);
      complete = nl ? static_cast<size_t>(static_cast<const char*>(nl) - buffer.data()) + 1 : 0;
      if (complete == 0 && size > (256u << 20)) return InvalidArgument("{}: line {} is longer than 256 MiB", input, out.line());
    }
    FLOE_RETURN_IF_ERROR(out.Feed(std::string_view(buffer.data(), complete), eof));
    carried = size - complete;
    std::memmove(buffer.data(), buffer.data() + complete, carried);
  }
  return OkStatus();
}

// Decodes the JSON lines of `input` into `writer`. Returns how many lines failed.
Result<int64_t> WriteJsonLines(const std::string& input, formats::JsonEventDecoder& decoder, parquet::FileWriter& writer) {
  JsonLinesWriter out(input, decoder, writer);
  FLOE_RETURN_IF_ERROR(WriteLines(input, out));
  return out.failed();
}

int RunWrite(const std::string& schema_path, const std::string& input, const std::string& output,
             const std::string& compression, int level, const std::string& unit_text) {
  auto fail = [](const Error& e, int code) {
    fmt::print(stderr, "floe parquet write: {}\n", e.ToString());
    return code;
  };
  auto schema_text = ReadWholeFile(schema_path);
  if (!schema_text) return fail(schema_text.error(), kExitUsage);
  auto schema = iceberg::SchemaFromJson(*schema_text);
  if (!schema) return fail(schema.error().WithContext(schema_path), kExitUsage);
  auto fields = formats::BatchFieldsFromSchema(*schema);
  if (!fields) return fail(fields.error(), kExitUsage);
  auto codec = parquet::ParseCodec(compression);
  if (!codec) return fail(codec.error(), kExitUsage);
  auto unit = formats::ParseEpochUnit(unit_text);
  if (!unit) return fail(unit.error(), kExitUsage);
  auto decoder = formats::JsonEventDecoder::Make(*fields, *unit);
  if (!decoder) return fail(decoder.error(), kExitUsage);
  auto out = parquet::LocalOutputStream::Open(output);
  if (!out) return fail(out.error(), kExitFailure);
  parquet::WriterOptions options;
  options.codec = *codec;
  if (level > 0) options.compression_level = level;
  options.key_value_metadata.push_back({"iceberg.schema", iceberg::SchemaToJson(*schema)});
  auto writer = parquet::FileWriter::Open(std::move(*out), *fields, options);
  if (!writer) return fail(writer.error(), kExitFailure);
  auto failed = WriteJsonLines(input, **decoder, **writer);
  if (!failed) return fail(failed.error(), kExitFailure);
  auto metrics = (*writer)->Close();
  if (!metrics) return fail(metrics.error(), kExitFailure);
  fmt::print(stderr, "floe parquet write: {} rows to {} ({} bytes){}\n", metrics->record_count, output,
             metrics->file_size, *failed > 0 ? fmt::format(", {} bad lines skipped", *failed) : "");
  return *failed > 0 ? kExitFailure : kExitOk;
}

}  // namespace

void RegisterParquetCommand(CLI::App& root, CommandRegistry& registry) {
  struct Flags {
    std::string file, schema, input, output, columns, compression = "zstd", timestamp_unit = "us";
    int64_t limit = -1;
    int level = 0;
  };
  auto flags = std::make_shared<Flags>();
  CLI::App* parquet = root.add_subcommand("parquet", "Inspect and write Parquet files");
  parquet->require_subcommand(1);
  CLI::App* meta = registry.Add(*parquet, "meta", "Print schema, row groups and column chunks as JSON", "parquet",
                                [flags] { return RunMeta(flags->file); });
  meta->add_option("file", flags->file, "Parquet file")->required();
  CLI::App* cat = registry.Add(*parquet, "cat", "Print rows as JSON lines (docs/parquet.md gives the mapping)", "parquet",
                               [flags] { return RunCat(flags->file, flags->columns, flags->limit); });
  cat->add_option("file", flags->file, "Parquet file")->required();
  cat->add_option("--columns", flags->columns, "Comma-separated columns to print");
  cat->add_option("--limit", flags->limit, "Print at most N rows");
  CLI::App* write = registry.Add(*parquet, "write", "Write JSON lines (one event per line) as Parquet", "parquet", [flags] {
    return RunWrite(flags->schema, flags->input, flags->output, flags->compression, flags->level, flags->timestamp_unit);
  });
  write->add_option("--schema", flags->schema, "Iceberg schema JSON file")->required();
  write->add_option("input", flags->input, "IN.jsonl")->required();
  write->add_option("output", flags->output, "OUT.parquet")->required();
  write->add_option("--compression", flags->compression, "none, snappy, zstd, gzip, lz4_raw or brotli")->capture_default_str();
  write->add_option("--compression-level", flags->level, "Codec level (zstd 1..22, gzip 1..9, brotli 0..11); 0 = the codec's default");
  write->add_option("--timestamp-unit", flags->timestamp_unit, "Unit of numeric timestamps: ms, us or ns")
      ->capture_default_str();
}

}  // namespace floe::cli

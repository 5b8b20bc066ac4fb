// `floe parquet`: inspect and write Parquet files (src/formats/parquet).
#include "cli/command.h"

namespace floe::cli {

void RegisterParquetCommand(CLI::App& root, CommandRegistry& registry) {
  struct Flags {
    std::string file, schema, input, output, columns, compression = "zstd", timestamp_unit = "us";
    int64_t limit = -1;
  };
  auto flags = std::make_shared<Flags>();
  CLI::App* parquet = root.add_subcommand("parquet", "Inspect and write Parquet files");
  parquet->require_subcommand(1);
  auto not_built = [] { return NotBuiltYet("parquet", "the Parquet codec", 3); };
  CLI::App* meta = registry.Add(*parquet, "meta", "Print schema, row groups and column chunks", "parquet", not_built);
  meta->add_option("file", flags->file, "Parquet file")->required();
  CLI::App* cat = registry.Add(*parquet, "cat", "Print rows as JSON lines", "parquet", not_built);
  cat->add_option("file", flags->file, "Parquet file")->required();
  cat->add_option("--columns", flags->columns, "Comma-separated columns to print");
  cat->add_option("--limit", flags->limit, "Print at most N rows");
  CLI::App* write = registry.Add(*parquet, "write", "Write JSON lines as Parquet", "parquet", not_built);
  write->add_option("--schema", flags->schema, "Iceberg schema JSON file")->required();
  write->add_option("input", flags->input, "IN.jsonl")->required();
  write->add_option("output", flags->output, "OUT.parquet")->required();
  write->add_option("--compression", flags->compression, "none, snappy, zstd, gzip or lz4_raw")->capture_default_str();
  write->add_option("--timestamp-unit", flags->timestamp_unit, "Unit of numeric timestamps: ms, us or ns")
      ->capture_default_str();
}

}  // namespace floe::cli

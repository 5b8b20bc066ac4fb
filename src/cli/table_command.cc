// `floe table`: Iceberg table operations from the command line (src/iceberg).
#include "cli/command.h"

namespace floe::cli {

void RegisterTableCommand(CLI::App& root, CommandRegistry& registry) {
  struct Flags {
    std::string table, catalog, warehouse, schema, file, filter, format;
    std::vector<std::string> partition;
    int64_t snapshot = 0;
  };
  auto flags = std::make_shared<Flags>();
  CLI::App* table = root.add_subcommand("table", "Create, inspect and maintain Iceberg tables");
  table->require_subcommand(1);
  auto not_built = [] { return NotBuiltYet("table", "Iceberg table operations", 4); };
  const std::pair<const char*, const char*> verbs[] = {
      {"create", "Create a table from an Iceberg schema JSON"},
      {"append", "Append a JSON-lines or Parquet file"},
      {"scan", "Print a table's rows"},
      {"describe", "Print a table's schema, partition spec and properties"},
      {"snapshots", "List snapshots with their summaries"},
      {"rollback", "Make an earlier snapshot current"},
      {"expire", "Expire old snapshots and delete unreachable files"},
      {"compact", "Rewrite small data files into larger ones"},
      {"remove-orphans", "Delete files no snapshot references"},
  };
  for (const auto& [verb, description] : verbs) {
    CLI::App* app = registry.Add(*table, verb, description, "table", not_built);
    app->add_option("table", flags->table, "NS.NAME, or a table folder or metadata.json path/URI")->required();
    app->add_option("--catalog", flags->catalog, "sqlite:PATH, postgresql://... or http(s)://host:port");
    app->add_option("--warehouse", flags->warehouse, "file:///abs/path or s3://bucket/prefix");
    std::string_view v = verb;
    if (v == "create") {
      app->add_option("--schema", flags->schema, "Iceberg schema JSON file")->required();
      app->add_option("--partition", flags->partition, "Partition field, e.g. 'day(ts)' (repeatable)");
    }
    if (v == "append") app->add_option("file", flags->file, "FILE.jsonl or FILE.parquet")->required();
    if (v == "scan") {
      app->add_option("--snapshot", flags->snapshot, "Snapshot id to read");
      app->add_option("--filter", flags->filter, "Row filter expression");
      app->add_option("--format", flags->format, "jsonl or table");
    }
  }
}

}  // namespace floe::cli

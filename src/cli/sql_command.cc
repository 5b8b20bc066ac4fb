// `floe sql`: run SQL over Iceberg tables from the command line (src/sql).
#include "cli/command.h"

namespace floe::cli {

void RegisterSqlCommand(CLI::App& root, CommandRegistry& registry) {
  struct Flags {
    std::string catalog, warehouse, execute, file, format = "table";
    int threads = 0;
  };
  auto flags = std::make_shared<Flags>();
  CLI::App* app = registry.Add(root, "sql", "Run SQL: -e SQL, -f FILE, or an interactive shell", "sql",
                               [] { return NotBuiltYet("sql", "the SQL engine", 9); });
  app->add_option("--catalog", flags->catalog, "sqlite:PATH, postgresql://... or http(s)://host:port");
  app->add_option("--warehouse", flags->warehouse, "file:///abs/path or s3://bucket/prefix");
  app->add_option("-e,--execute", flags->execute, "SQL to run");
  app->add_option("-f,--file", flags->file, "File of SQL statements to run");
  app->add_option("--format", flags->format, "Output: table, csv or json")
      ->check(CLI::IsMember({"table", "csv", "json"}))
      ->capture_default_str();
  app->add_option("--threads", flags->threads, "Worker threads (default: all cores)");
}

}  // namespace floe::cli

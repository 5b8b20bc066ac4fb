// `floe query`: the query server: Trino protocol, PostgreSQL wire, HTTP API and console (src/serve).
#include "cli/command.h"

namespace floe::cli {

void RegisterQueryCommand(CLI::App& root, CommandRegistry& registry) {
  struct Flags {
    std::string listen = "127.0.0.1:8080";
    std::string pg_listen = "127.0.0.1:5433";
    std::string catalog, warehouse;
  };
  auto flags = std::make_shared<Flags>();
  CLI::App* app = registry.Add(root, "query", "Serve SQL over the Trino protocol, PostgreSQL wire and HTTP", "query",
                               [] { return NotBuiltYet("query", "the query server", 10); });
  app->add_option("--listen", flags->listen, "HOST:PORT for the Trino protocol, HTTP API and console")
      ->capture_default_str();
  app->add_option("--pg-listen", flags->pg_listen, "HOST:PORT for the PostgreSQL wire protocol")
      ->capture_default_str();
  app->add_option("--catalog", flags->catalog, "sqlite:PATH, postgresql://... or http(s)://host:port");
  app->add_option("--warehouse", flags->warehouse, "file:///abs/path or s3://bucket/prefix");
}

}  // namespace floe::cli

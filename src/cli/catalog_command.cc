// `floe catalog`: the Iceberg REST catalog server (src/catalog).
#include "cli/command.h"

namespace floe::cli {

void RegisterCatalogCommand(CLI::App& root, CommandRegistry& registry) {
  struct Flags {
    std::string listen = "127.0.0.1:8181";
    std::string backend = "sqlite:./floe-data/catalog.db";
    std::string warehouse;
  };
  auto flags = std::make_shared<Flags>();
  CLI::App* app = registry.Add(root, "catalog", "Run the Iceberg REST catalog server", "catalog",
                               [] { return NotBuiltYet("catalog", "the Iceberg REST catalog", 6); });
  app->add_option("--listen", flags->listen, "HOST:PORT to serve the REST API on")->capture_default_str();
  app->add_option("--backend", flags->backend, "sqlite:PATH or postgresql://... holding the table pointers")
      ->capture_default_str();
  app->add_option("--warehouse", flags->warehouse, "file:///abs/path or s3://bucket/prefix for new tables");
}

}  // namespace floe::cli

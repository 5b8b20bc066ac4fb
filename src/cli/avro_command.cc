// `floe avro`: print Avro object container files (src/formats/avro).
#include "cli/command.h"

namespace floe::cli {

void RegisterAvroCommand(CLI::App& root, CommandRegistry& registry) {
  auto file = std::make_shared<std::string>();
  CLI::App* avro = root.add_subcommand("avro", "Inspect Avro files (Iceberg manifests and manifest lists)");
  avro->require_subcommand(1);
  CLI::App* cat = registry.Add(*avro, "cat", "Print records as JSON lines", "avro",
                               [] { return NotBuiltYet("avro", "the Avro codec", 4); });
  cat->add_option("file", *file, "Avro object container file")->required();
}

}  // namespace floe::cli

// `floe avro`: print Avro object container files (src/formats/avro).
#include <fstream>
#include <sstream>

#include <fmt/format.h>

#include "cli/command.h"
#include "formats/avro/binary_encoding.h"
#include "formats/avro/container_file.h"

namespace floe::cli {
namespace {

int RunAvroCat(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) {
    fmt::print(stderr, "floe avro cat: cannot open {}\n", path);
    return kExitFailure;
  }
  std::stringstream buffer;
  buffer << in.rdbuf();
  auto reader = avro::ContainerReader::Open(buffer.str(), path);
  if (!reader) {
    fmt::print(stderr, "floe avro cat: {}\n", reader.error().ToString());
    return kExitFailure;
  }
  while (true) {
    auto record = reader->Next();
    if (!record) {
      fmt::print(stderr, "floe avro cat: {}\n", record.error().ToString());
      return kExitFailure;
    }
    if (!*record) break;
    fmt::print("{}\n", avro::DatumToJson(reader->schema().root(), **record).dump());
  }
  return kExitOk;
}

}  // namespace

void RegisterAvroCommand(CLI::App& root, CommandRegistry& registry) {
  auto file = std::make_shared<std::string>();
  CLI::App* avro = root.add_subcommand("avro", "Inspect Avro files (Iceberg manifests and manifest lists)");
  avro->require_subcommand(1);
  CLI::App* cat = registry.Add(*avro, "cat", "Print records as JSON lines", "avro", [file] { return RunAvroCat(*file); });
  cat->add_option("file", *file, "Avro object container file")->required();
}

}  // namespace floe::cli

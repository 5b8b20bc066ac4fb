// Fuzz target: bytes as an Avro object container file (Iceberg manifests and manifest lists):
// header, schema JSON, codec, sync markers and every record.
#include <cstdint>
#include <string>

#include "formats/avro/container_file.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  auto reader = floe::avro::ContainerReader::Open(std::string(reinterpret_cast<const char*>(data), size), "fuzz.avro");
  if (!reader) return 0;
  for (int records = 0; records < 100'000; ++records) {
    auto next = reader->Next();
    if (!next || !next->has_value()) break;
  }
  return 0;
}

// Fuzz target: bytes as an Iceberg table metadata file (metadata.json), the first thing every
// reader of a table parses and a file any engine may have written.
#include <cstdint>
#include <string_view>

#include "iceberg/table_metadata.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  auto metadata = floe::iceberg::TableMetadataFromJson(std::string_view(reinterpret_cast<const char*>(data), size),
                                                       "fuzz.metadata.json");
  if (metadata) (void)floe::iceberg::TableMetadataToJson(*metadata);
  return 0;
}

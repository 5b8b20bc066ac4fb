// Fuzz target: bytes as a Parquet file. The footer, the schema, every row group and every page
// are decoded as a query would; corrupt input must give an error naming what is wrong and where.
#include <cstdint>
#include <memory>
#include <string>

#include "formats/parquet/file_reader.h"
#include "formats/parquet/local_file.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace floe::parquet;
  std::string bytes(reinterpret_cast<const char*>(data), size);
  auto reader = FileReader::Open(std::make_unique<MemoryInputFile>(std::move(bytes), "fuzz.parquet"));
  if (!reader) return 0;
  for (int rg = 0; rg < (*reader)->num_row_groups(); ++rg) {
    auto stream = (*reader)->OpenRowGroup(rg);
    if (!stream) continue;
    for (int batches = 0; batches < 64; ++batches) {
      auto batch = (*stream)->Next(4096);
      if (!batch || !batch->has_value()) break;
    }
  }
  return 0;
}

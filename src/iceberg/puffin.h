// Puffin files (format/puffin-spec.md): blobs of statistics or deletion vectors that an Iceberg
// table's metadata points at. Layout: the magic "PFA1", the blobs back to back, then the footer:
// the magic again, a JSON payload describing each blob (type, fields, snapshot-id,
// sequence-number, offset, length, properties), the payload's length (4 bytes little-endian),
// 4 flag bytes (bit 0 of the first: the payload is compressed; floe writes it uncompressed and
// refuses to read a compressed one) and the magic a last time.
//
// Reading treats the file as hostile: the footer's lengths and every blob's range are checked
// against the bytes present, its JSON depth is bounded; errors are Corruption naming `where`.
// Stateless functions; any thread.
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <string_view>
#include <vector>

#include "base/result.h"

namespace floe::iceberg {

struct PuffinBlob {
  std::string type;            // e.g. "apache-datasketches-theta-v1"
  std::vector<int32_t> fields;  // Field ids the blob describes.
  int64_t snapshot_id = -1;
  int64_t sequence_number = -1;
  std::map<std::string, std::string> properties;  // e.g. {"ndv": "1234"}
  int64_t offset = 0;  // Filled by WritePuffin and ReadPuffin: where `data` lies in the file.
  int64_t length = 0;
  std::string data;    // The blob's bytes (ReadPuffin fills them).
};

struct PuffinFile {
  std::string bytes;        // The whole file.
  int64_t footer_size = 0;  // The footer's bytes (magic to magic), as table metadata records it.
};

// The file holding `blobs` (their offset and length are set). `created_by` goes into the
// footer's file properties.
PuffinFile WritePuffin(std::vector<PuffinBlob>& blobs, std::string_view created_by);

// Every blob of a Puffin file, with its bytes.
Result<std::vector<PuffinBlob>> ReadPuffin(std::string_view file, std::string_view where);

}  // namespace floe::iceberg

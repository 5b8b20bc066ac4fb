// Avro object container files (Avro specification, "Object Container Files"): the header
// (magic "Obj\x01", the metadata map with avro.schema and avro.codec, a 16-byte sync marker)
// followed by blocks of (record count, byte size, compressed records, sync marker).
//
// ContainerReader reads a whole file held in memory (manifests and manifest lists are small)
// and yields records one at a time; every count, size and marker is checked, so garbage,
// truncation and absurd lengths are Corruption errors. ContainerWriter buffers records into
// blocks and returns the finished file's bytes. Neither is thread-safe; each belongs to the
// thread that made it.
#pragma once

#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "formats/avro/avro_schema.h"
#include "formats/avro/avro_value.h"
#include "formats/avro/codec.h"

namespace floe::avro {

class ContainerReader {
 public:
  // A decompressed block may not exceed this (a hostile block cannot balloon a reader).
  static constexpr size_t kMaxBlockBytes = size_t{256} << 20;

  // Parses the header of `bytes`; `location` names the file in error messages.
  static Result<ContainerReader> Open(std::string bytes, std::string location = "avro file");

  const AvroSchema& schema() const { return *schema_; }
  // The header's metadata, values as raw bytes ("avro.schema", "avro.codec", and user keys).
  const std::map<std::string, std::string>& metadata() const { return metadata_; }
  Codec codec() const { return codec_; }

  // The next record, or nullopt after the last one.
  Result<std::optional<AvroValue>> Next();
  Result<std::vector<AvroValue>> ReadAll();

 private:
  ContainerReader() = default;
  Status LoadBlock();

  std::string location_;
  std::unique_ptr<std::string> file_;
  size_t file_position_ = 0;
  std::unique_ptr<AvroSchema> schema_;
  std::map<std::string, std::string> metadata_;
  Codec codec_ = Codec::kNull;
  std::string sync_;
  std::string block_;
  size_t block_position_ = 0;
  int64_t block_remaining_ = 0;
};

class ContainerWriter {
 public:
  // Blocks are flushed when their encoded records reach this size.
  static constexpr size_t kTargetBlockBytes = 256 * 1024;

  // `metadata` holds extra header keys (Iceberg's "schema", "partition-spec", ...).
  ContainerWriter(AvroSchema schema, Codec codec, std::map<std::string, std::string> metadata = {});

  const AvroSchema& schema() const { return schema_; }
  Status Append(const AvroValue& record);
  size_t record_count() const { return record_count_; }
  // Flushes the last block and returns the whole file.
  Result<std::string> Finish();

 private:
  Status FlushBlock();

  AvroSchema schema_;
  Codec codec_;
  std::string sync_;
  std::string file_;
  std::string block_;
  int64_t block_records_ = 0;
  size_t record_count_ = 0;
};

}  // namespace floe::avro

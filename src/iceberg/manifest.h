// Manifests and manifest lists (format/spec.md, "Manifests", "Manifest Lists"): the model of
// data files, manifest entries and manifest-list records, and their Avro files written with
// exactly the spec's schemas, record names ("manifest_entry", "manifest_file", "r2", "r102",
// "r508", "k117_v118", ...), field ids and header metadata.
//
// Reading applies the spec's inheritance: entries with null snapshot ids or sequence numbers
// (ADDED entries of v2 manifests) take them from the manifest-list record; v1 manifests read
// with sequence numbers 0. Reading resolves fields by field id, so older writers' manifests
// (v1, renamed fields) read the same.
//
// Values and stateless functions; any thread.
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "iceberg/literal.h"
#include "iceberg/partition_spec.h"
#include "iceberg/schema.h"

namespace floe::iceberg {

enum class FileContent { kData = 0, kPositionDeletes = 1, kEqualityDeletes = 2 };
enum class ManifestContent { kData = 0, kDeletes = 1 };
enum class EntryStatus { kExisting = 0, kAdded = 1, kDeleted = 2 };

struct DataFile {
  FileContent content = FileContent::kData;
  std::string file_path;
  std::string file_format = "PARQUET";
  int32_t spec_id = 0;              // Not stored in the file: the manifest's spec.
  std::vector<Literal> partition;   // One value per partition field of the spec, in order.
  int64_t record_count = 0;
  int64_t file_size_in_bytes = 0;
  std::map<int32_t, int64_t> column_sizes;
  std::map<int32_t, int64_t> value_counts;
  std::map<int32_t, int64_t> null_value_counts;
  std::map<int32_t, int64_t> nan_value_counts;
  std::map<int32_t, std::string> lower_bounds;  // Appendix D binary form
  std::map<int32_t, std::string> upper_bounds;
  std::optional<std::string> key_metadata;
  std::vector<int64_t> split_offsets;
  std::vector<int32_t> equality_ids;
  std::optional<int32_t> sort_order_id;
  std::optional<std::string> referenced_data_file;
  std::optional<int64_t> first_row_id;
  // v3 deletion vectors (file_format "PUFFIN"): the blob's byte range in the Puffin file.
  std::optional<int64_t> content_offset;
  std::optional<int64_t> content_size_in_bytes;

  bool is_deletion_vector() const {
    return content == FileContent::kPositionDeletes && (file_format == "PUFFIN" || file_format == "puffin");
  }
};

struct ManifestEntry {
  EntryStatus status = EntryStatus::kAdded;
  std::optional<int64_t> snapshot_id;           // Null on write for ADDED: inherited.
  std::optional<int64_t> sequence_number;       // Data sequence number; null: inherited.
  std::optional<int64_t> file_sequence_number;  // Null: inherited.
  DataFile data_file;
};

struct PartitionFieldSummary {
  bool contains_null = false;
  std::optional<bool> contains_nan;
  std::optional<std::string> lower_bound;  // Appendix D binary form of the partition type
  std::optional<std::string> upper_bound;
};

// One record of a manifest list.
struct ManifestFile {
  std::string manifest_path;
  int64_t manifest_length = 0;
  int32_t partition_spec_id = 0;
  ManifestContent content = ManifestContent::kData;
  int64_t sequence_number = 0;      // Written as the snapshot's when the manifest is new.
  int64_t min_sequence_number = 0;
  int64_t added_snapshot_id = 0;
  std::optional<int32_t> added_files_count;
  std::optional<int32_t> existing_files_count;
  std::optional<int32_t> deleted_files_count;
  std::optional<int64_t> added_rows_count;
  std::optional<int64_t> existing_rows_count;
  std::optional<int64_t> deleted_rows_count;
  std::vector<PartitionFieldSummary> partitions;
  std::optional<std::string> key_metadata;
  std::optional<int64_t> first_row_id;

  // A manifest written in this commit has no sequence number until the manifest list assigns
  // the snapshot's; kUnassigned marks it.
  static constexpr int64_t kUnassigned = -1;
  bool has_added_files() const { return !added_files_count || *added_files_count > 0; }
  bool has_existing_files() const { return !existing_files_count || *existing_files_count > 0; }
};

// What a manifest needs to know about its table when written.
struct ManifestWriteContext {
  int format_version = 2;
  const Schema* schema = nullptr;       // The table schema at write time (the "schema" key).
  const PartitionSpec* spec = nullptr;  // The manifest's spec.
  ManifestContent content = ManifestContent::kData;
  int64_t snapshot_id = 0;              // The snapshot adding the manifest.
};

// Writes a manifest; returns its bytes and fills `record` (all fields but manifest_path,
// manifest_length and, for new entries, the sequence numbers, which the manifest list
// assigns). ADDED entries without explicit sequence numbers are written with nulls.
struct WrittenManifest {
  std::string bytes;
  ManifestFile record;
};
Result<WrittenManifest> WriteManifest(const ManifestWriteContext& context, const std::vector<ManifestEntry>& entries);

// Reads a manifest's entries, applying inheritance from `record`. `schema` is the table's
// current schema; the partition type comes from `spec` (the record's spec id).
Result<std::vector<ManifestEntry>> ReadManifest(std::string bytes, const ManifestFile& record,
                                                const PartitionSpec& spec, const Schema& schema,
                                                std::string_view location = "manifest");

// Manifest lists. Records whose sequence_number is kUnassigned get `sequence_number`.
Result<std::string> WriteManifestList(int format_version, int64_t snapshot_id, std::optional<int64_t> parent_id,
                                      int64_t sequence_number, std::vector<ManifestFile> manifests);
Result<std::vector<ManifestFile>> ReadManifestList(std::string bytes, std::string_view location = "manifest list");

// The Iceberg schemas of manifest_entry (with the given partition type) and manifest_file.
Schema ManifestEntrySchema(const TypePtr& partition_type, int format_version);
Schema ManifestFileSchema(int format_version);

}  // namespace floe::iceberg

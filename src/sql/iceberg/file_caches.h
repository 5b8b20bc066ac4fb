// FileCaches: the catalog's caches of immutable files, shared by every query — manifest lists
// and manifests (parsed entries) and Parquet footers (opened readers, reusable by any thread).
// Keys are the locations recorded in metadata. Thread-safe.
#pragma once

#include <memory>
#include <vector>

#include "formats/parquet/file_reader.h"
#include "iceberg/manifest.h"
#include "sql/iceberg/immutable_file_cache.h"
#include "sql/iceberg/resolved_table.h"

namespace floe::sql::iceberg_sql {

struct FileCaches {
  ImmutableFileCache<std::vector<iceberg::ManifestFile>> manifest_lists{4096};
  ImmutableFileCache<std::vector<iceberg::ManifestEntry>> manifests{16384};
  ImmutableFileCache<parquet::FileReader> footers{1024};
};

// The manifest-list records of `snapshot`.
Result<std::shared_ptr<const std::vector<iceberg::ManifestFile>>> CachedManifestList(FileCaches& caches,
                                                                                     const ResolvedTable& table,
                                                                                     const iceberg::Snapshot& snapshot);
// The entries (every status, inheritance applied) of one manifest.
Result<std::shared_ptr<const std::vector<iceberg::ManifestEntry>>> CachedManifest(FileCaches& caches,
                                                                                  const ResolvedTable& table,
                                                                                  const iceberg::ManifestFile& manifest);
// An opened Parquet reader (footer parsed) for a data file.
Result<std::shared_ptr<const parquet::FileReader>> CachedFooter(FileCaches& caches, iceberg::TableOperations& ops,
                                                                const std::string& location);

}  // namespace floe::sql::iceberg_sql

#include "sql/iceberg/file_caches.h"

namespace floe::sql::iceberg_sql {

Result<std::shared_ptr<const std::vector<iceberg::ManifestFile>>> CachedManifestList(FileCaches& caches,
                                                                                     const ResolvedTable& table,
                                                                                     const iceberg::Snapshot& snapshot) {
  if (snapshot.manifest_list.empty()) {
    return NotImplemented("snapshot {} lists manifests without a manifest list (v1)", snapshot.snapshot_id);
  }
  return caches.manifest_lists.Get(snapshot.manifest_list, [&]() -> Result<std::shared_ptr<const std::vector<iceberg::ManifestFile>>> {
    FLOE_ASSIGN_OR_RETURN(std::string key, table.ops->KeyForLocation(snapshot.manifest_list));
    FLOE_ASSIGN_OR_RETURN(std::string bytes, table.ops->store().Get(key));
    FLOE_ASSIGN_OR_RETURN(auto list, iceberg::ReadManifestList(std::move(bytes), snapshot.manifest_list));
    return std::make_shared<const std::vector<iceberg::ManifestFile>>(std::move(list));
  });
}

Result<std::shared_ptr<const std::vector<iceberg::ManifestEntry>>> CachedManifest(FileCaches& caches,
                                                                                  const ResolvedTable& table,
                                                                                  const iceberg::ManifestFile& manifest) {
  return caches.manifests.Get(manifest.manifest_path, [&]() -> Result<std::shared_ptr<const std::vector<iceberg::ManifestEntry>>> {
    const iceberg::TableMetadata& m = table.metadata();
    const iceberg::PartitionSpec* spec = m.SpecById(manifest.partition_spec_id);
    if (!spec) {
      return Corruption("manifest {} uses unknown partition spec {}", manifest.manifest_path, manifest.partition_spec_id);
    }
    FLOE_ASSIGN_OR_RETURN(std::string key, table.ops->KeyForLocation(manifest.manifest_path));
    FLOE_ASSIGN_OR_RETURN(std::string bytes, table.ops->store().Get(key));
    FLOE_ASSIGN_OR_RETURN(auto entries,
                          iceberg::ReadManifest(std::move(bytes), manifest, *spec, m.CurrentSchema(), manifest.manifest_path));
    return std::make_shared<const std::vector<iceberg::ManifestEntry>>(std::move(entries));
  });
}

Result<std::shared_ptr<const parquet::FileReader>> CachedFooter(FileCaches& caches, iceberg::TableOperations& ops,
                                                                const std::string& location) {
  return caches.footers.Get(location, [&]() -> Result<std::shared_ptr<const parquet::FileReader>> {
    FLOE_ASSIGN_OR_RETURN(std::string key, ops.KeyForLocation(location));
    FLOE_ASSIGN_OR_RETURN(auto input, ops.store().OpenInput(key));
    FLOE_ASSIGN_OR_RETURN(auto reader, parquet::FileReader::Open(std::move(input)));
    return std::shared_ptr<const parquet::FileReader>(std::move(reader));
  });
}

}  // namespace floe::sql::iceberg_sql

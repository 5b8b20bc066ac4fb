#include "catalog/catalog_table_operations.h"

#include <filesystem>

#include <fmt/format.h>

#include "iceberg/table_metadata.h"
#include "io/object_store.h"

namespace floe::catalog {
Result<std::shared_ptr<CatalogTableOperations>> CatalogTableOperations::Open(std::shared_ptr<Catalog> catalog,
                                                                             TableIdentifier id,
                                                                             const std::string& relative_root) {
  std::shared_ptr<CatalogTableOperations> ops(new CatalogTableOperations(std::move(catalog), std::move(id)));
  FLOE_ASSIGN_OR_RETURN(LoadedTable loaded, ops->catalog_->LoadTable(ops->id_));
  if (!loaded.metadata.contains("location") || !loaded.metadata["location"].is_string()) {
    return Corruption("table {} has metadata without a location ({})", IdentifierToString(ops->id_), loaded.metadata_location);
  }
  ops->location_ = loaded.metadata["location"].get<std::string>();
  while (!ops->location_.empty() && ops->location_.back() == '/') ops->location_.pop_back();
  ops->recorded_location_ = ops->location_;
  if (ops->location_.find("://") == std::string::npos && !ops->location_.starts_with('/') && !relative_root.empty()) {
    std::string_view rest = ops->location_;
    while (!rest.empty()) {
      std::filesystem::path candidate = std::filesystem::path(relative_root) / rest;
      std::error_code ignored;
      if (std::filesystem::is_directory(candidate, ignored)) {
        ops->location_ = "file://" + candidate.lexically_normal().string();
        break;
      }
      size_t slash = rest.find('/');
      rest = slash == std::string_view::npos ? std::string_view() : rest.substr(slash + 1);
    }
  }
  FLOE_ASSIGN_OR_RETURN_CTX(std::unique_ptr<io::ObjectStore> store, io::OpenObjectStore(ops->location_),
                            fmt::format("opening the location of table {}", IdentifierToString(ops->id_)));
  ops->store_ = std::move(store);
  return ops;
}

Result<iceberg::VersionedMetadata> CatalogTableOperations::FromLoaded(const LoadedTable& loaded) {
  FLOE_ASSIGN_OR_RETURN_CTX(iceberg::TableMetadata metadata, iceberg::TableMetadataFromJsonValue(loaded.metadata),
                            loaded.metadata_location);
  iceberg::VersionedMetadata versioned;
  versioned.metadata = std::make_shared<const iceberg::TableMetadata>(std::move(metadata));
  versioned.location = loaded.metadata_location;
  versioned.version = ++version_;
  return versioned;
}

Result<iceberg::VersionedMetadata> CatalogTableOperations::Refresh() {
  FLOE_ASSIGN_OR_RETURN(LoadedTable loaded, catalog_->LoadTable(id_));
  return FromLoaded(loaded);
}

Result<iceberg::VersionedMetadata> CatalogTableOperations::Commit(const iceberg::VersionedMetadata& base,
                                                                  const iceberg::TableChange& change) {
  if (base.version == 0 || !base.metadata) {
    return InvalidArgument("table {}: create catalog tables through the catalog, not by a commit", IdentifierToString(id_));
  }
  // The catalog validates the requirements against the table's current metadata and applies
  // the updates (its TableMetadataBuilder, or a REST server's), exactly as sent.
  FLOE_ASSIGN_OR_RETURN(LoadedTable loaded,
                        catalog_->CommitTable(TableCommit{id_, change.requirements, change.updates}));
  return FromLoaded(loaded);
}

Result<std::string> CatalogTableOperations::KeyForLocation(std::string_view location) const {
  // Files recorded under the recorded location live under the resolved one.
  if (recorded_location_ != location_ && location.size() > recorded_location_.size() &&
      location.starts_with(recorded_location_) && location[recorded_location_.size()] == '/') {
    return std::string(location.substr(recorded_location_.size() + 1));
  }
  std::string normalized = io::NormalizeObjectUri(location);
  std::string root = io::NormalizeObjectUri(location_);
  if (normalized.size() > root.size() && normalized.starts_with(root) && normalized[root.size()] == '/') {
    return normalized.substr(root.size() + 1);
  }
  return InvalidArgument("{} is outside the location {} of table {}", location, location_, IdentifierToString(id_));
}

std::string CatalogTableOperations::NewLocation(std::string_view relative) const {
  return fmt::format("{}/{}", location_, relative);
}

}  // namespace floe::catalog

#include "catalog/pointer_catalog.h"

#include <fmt/format.h>

#include <set>

#include "base/clock.h"
#include "catalog/location_policy.h"
#include "iceberg/table_metadata.h"
#include "iceberg/table_metadata_builder.h"
#include "iceberg/table_operations.h"

namespace floe::catalog {
namespace {

// Lost swaps redone before giving up with Conflict; each redo means another writer progressed.
constexpr int kMaxCommitAttempts = 64;
constexpr size_t kMaxMetadataBytes = size_t{1} << 30;
constexpr size_t kMetadataCacheEntries = 64;

std::unexpected<Error> NoSuchTable(const TableIdentifier& id) {
  return CodedError(ErrorCode::kNoSuchTable, "no such table: {}", IdentifierToString(id));
}

}  // namespace

std::string NextMetadataLocation(std::string_view table_location, std::string_view previous) {
  int64_t version = 0;
  if (!previous.empty()) {
    std::string_view name = previous.substr(previous.rfind('/') + 1);
    size_t digits = 0;
    while (digits < name.size() && std::isdigit(static_cast<unsigned char>(name[digits]))) {
      ++digits;
    }
    if (digits > 0 && digits < 19 && digits < name.size() && name[digits] == '-') {
      version = std::stoll(std::string(name.substr(0, digits))) + 1;
    } else if (name.starts_with("v") && name.ends_with(".metadata.json")) {
      // Hadoop-style "v3.metadata.json".
      std::string_view number = name.substr(1, name.find('.') - 1);
      try {
        version = std::stoll(std::string(number)) + 1;
      } catch (const std::exception&) {
        version = 1;
      }
    } else {
      version = 1;
    }
  }
  std::string base(table_location);
  while (base.ends_with('/')) {
    base.pop_back();
  }
  return fmt::format("{}/metadata/{:05d}-{}.metadata.json", base, version, iceberg::NewUuid());
}

PointerCatalog::PointerCatalog(std::unique_ptr<MetadataPointerStore> pointers, std::unique_ptr<MetadataFileIo> files,
                               std::string warehouse)
    : pointers_(std::move(pointers)), files_(std::move(files)), warehouse_(std::move(warehouse)) {
  while (warehouse_.ends_with('/')) {
    warehouse_.pop_back();
  }
}

Status PointerCatalog::CreateNamespace(const Namespace& ns, const Properties& properties) {
  FLOE_RETURN_IF_ERROR(ValidateNamespace(ns));
  return pointers_->CreateNamespace(ns, properties);
}
Result<std::vector<Namespace>> PointerCatalog::ListNamespaces(const Namespace& parent) {
  return pointers_->ListNamespaces(parent);
}
Result<bool> PointerCatalog::NamespaceExists(const Namespace& ns) { return pointers_->NamespaceExists(ns); }
Result<Properties> PointerCatalog::LoadNamespaceProperties(const Namespace& ns) {
  return pointers_->LoadNamespaceProperties(ns);
}
Result<PropertiesUpdate> PointerCatalog::UpdateNamespaceProperties(const Namespace& ns,
                                                                   const std::vector<std::string>& removals,
                                                                   const Properties& updates) {
  return pointers_->UpdateNamespaceProperties(ns, removals, updates);
}
Status PointerCatalog::DropNamespace(const Namespace& ns) { return pointers_->DropNamespace(ns); }

Result<std::vector<TableIdentifier>> PointerCatalog::ListTables(const Namespace& ns) {
  return pointers_->ListTables(ns);
}

Result<bool> PointerCatalog::TableExists(const TableIdentifier& id) {
  FLOE_ASSIGN_OR_RETURN(auto pointer, pointers_->GetPointer(id));
  return pointer.has_value();
}

Status PointerCatalog::CollectLocations(const Namespace& ns, const TableIdentifier& skip,
                                        std::vector<std::pair<TableIdentifier, std::string>>* out) {
  if (!ns.empty()) {
    FLOE_ASSIGN_OR_RETURN(std::vector<TableIdentifier> tables, pointers_->ListTables(ns));
    for (const TableIdentifier& table : tables) {
      if (table == skip) continue;
      FLOE_ASSIGN_OR_RETURN(auto pointer, pointers_->GetPointer(table));
      if (!pointer) continue;  // Dropped meanwhile.
      // A table whose metadata cannot be read (or lies outside the allowed roots) cannot be
      // purged through this catalog either, so it holds no location to protect here.
      auto metadata = ReadMetadata(*pointer);
      if (!metadata) continue;
      auto location = NormalizeLocation(metadata->value("location", ""));
      if (location) out->emplace_back(table, *location);
    }
    // Views' folders too: a table purged over a view's folder would delete its metadata files.
    FLOE_ASSIGN_OR_RETURN(std::vector<TableIdentifier> views, pointers_->ListViews(ns));
    for (const TableIdentifier& view : views) {
      if (view == skip) continue;
      FLOE_ASSIGN_OR_RETURN(auto pointer, pointers_->GetViewPointer(view));
      if (!pointer) continue;
      auto text = files_->Read(*pointer);
      if (!text) continue;
      auto metadata = nlohmann::json::parse(*text, nullptr, /*allow_exceptions=*/false);
      if (!metadata.is_object() || !metadata.contains("location") || !metadata["location"].is_string()) continue;
      auto location = NormalizeLocation(metadata["location"].get<std::string>());
      if (location) out->emplace_back(view, *location);
    }
  }
  FLOE_ASSIGN_OR_RETURN(std::vector<Namespace> children, pointers_->ListNamespaces(ns));
  for (const Namespace& child : children) {
    if (child.size() <= ns.size()) continue;  // Never walk back up (a store listing itself).
    FLOE_RETURN_IF_ERROR(CollectLocations(child, skip, out));
  }
  return OkStatus();
}

Result<std::string> PointerCatalog::CheckNewLocation(const TableIdentifier& id, std::string_view location) {
  FLOE_ASSIGN_OR_RETURN_CTX(std::string normal, files_->policy().CheckTableLocation(location), IdentifierToString(id));
  if (!files_->policy().confined()) {
    return normal;
  }
  std::vector<std::pair<TableIdentifier, std::string>> others;
  FLOE_RETURN_IF_ERROR(CollectLocations({}, id, &others));
  for (const auto& [other, other_location] : others) {
    if (LocationsOverlap(normal, other_location)) {
      return PermissionDenied("{}: location '{}' overlaps table {} at '{}'", IdentifierToString(id), normal,
                              IdentifierToString(other), other_location);
    }
  }
  return normal;
}

Status PointerCatalog::RequireNamespace(const Namespace& ns) {
  if (ns.empty()) {
    return InvalidArgument("a table needs a namespace");
  }
  FLOE_ASSIGN_OR_RETURN(bool exists, pointers_->NamespaceExists(ns));
  if (!exists) {
    return CodedError(ErrorCode::kNoSuchNamespace, "no such namespace: {}", NamespaceToString(ns));
  }
  return OkStatus();
}

std::shared_ptr<const nlohmann::json> PointerCatalog::CachedMetadata(const std::string& location) {
  std::lock_guard lock(cache_mu_);
  auto it = cache_.find(location);
  return it == cache_.end() ? nullptr : it->second;
}

void PointerCatalog::CacheMetadata(const std::string& location, std::shared_ptr<const nlohmann::json> metadata,
                                   std::shared_ptr<const iceberg::TableMetadata> model) {
  std::lock_guard lock(cache_mu_);
  if (cache_.emplace(location, std::move(metadata)).second) {
    cache_order_.push_back(location);
  }
  if (model) {
    models_[location] = std::move(model);
  }
  while (cache_order_.size() > kMetadataCacheEntries) {
    cache_.erase(cache_order_.front());
    models_.erase(cache_order_.front());
    cache_order_.pop_front();
  }
}

Result<std::shared_ptr<const iceberg::TableMetadata>> PointerCatalog::MetadataModel(const std::string& location,
                                                                                    const nlohmann::json& metadata) {
  {
    std::lock_guard lock(cache_mu_);
    if (auto it = models_.find(location); it != models_.end()) {
      return it->second;
    }
  }
  FLOE_ASSIGN_OR_RETURN_CTX(iceberg::TableMetadata parsed, iceberg::TableMetadataFromJsonValue(metadata), location);
  auto model = std::make_shared<const iceberg::TableMetadata>(std::move(parsed));
  std::lock_guard lock(cache_mu_);
  if (cache_.contains(location)) {
    models_[location] = model;
  }
  return model;
}

Result<nlohmann::json> PointerCatalog::ReadMetadata(const std::string& location) {
  if (auto cached = CachedMetadata(location)) {
    return *cached;
  }
  FLOE_ASSIGN_OR_RETURN_CTX(std::string text, files_->Read(location), fmt::format("reading metadata {}", location));
  if (text.size() >= 2 && static_cast<unsigned char>(text[0]) == 0x1f && static_cast<unsigned char>(text[1]) == 0x8b) {
    // "*.gz.metadata.json", as Spark writes with write.metadata.compression-codec=gzip.
    FLOE_ASSIGN_OR_RETURN_CTX(text, iceberg::GzipDecompress(text, kMaxMetadataBytes), location);
  }
  nlohmann::json metadata = nlohmann::json::parse(text, nullptr, /*allow_exceptions=*/false);
  if (!metadata.is_object() || !metadata.contains("format-version")) {
    return Corruption("metadata {} is not an Iceberg table metadata object", location);
  }
  CacheMetadata(location, std::make_shared<const nlohmann::json>(metadata));
  return metadata;
}

Result<LoadedTable> PointerCatalog::LoadTable(const TableIdentifier& id) {
  FLOE_ASSIGN_OR_RETURN(auto pointer, pointers_->GetPointer(id));
  if (!pointer) {
    return NoSuchTable(id);
  }
  FLOE_ASSIGN_OR_RETURN(nlohmann::json metadata, ReadMetadata(*pointer));
  return LoadedTable{*pointer, std::move(metadata), {}};
}

Result<std::string> PointerCatalog::DefaultLocation(const TableIdentifier& id) {
  if (warehouse_.empty()) {
    return InvalidArgument("table {} names no location and the catalog has no warehouse", IdentifierToString(id));
  }
  std::string location = warehouse_;
  for (const std::string& level : id.ns) {
    location += "/" + level;
  }
  return location + "/" + id.name;
}

Result<LoadedTable> PointerCatalog::CreateTable(const TableIdentifier& id, const TableCreation& creation, bool stage) {
  FLOE_RETURN_IF_ERROR(ValidateTableName(id.name));
  FLOE_RETURN_IF_ERROR(RequireNamespace(id.ns));
  FLOE_ASSIGN_OR_RETURN(auto existing, pointers_->GetPointer(id));
  if (existing) {
    return AlreadyExists("table already exists: {}", IdentifierToString(id));
  }
  TableCreation resolved = creation;
  if (resolved.location.empty()) {
    FLOE_ASSIGN_OR_RETURN(resolved.location, DefaultLocation(id));
  }
  FLOE_ASSIGN_OR_RETURN(resolved.location, CheckNewLocation(id, resolved.location));
  FLOE_ASSIGN_OR_RETURN(nlohmann::json metadata, NewTableMetadata(resolved, Clock::System().NowMillis()));
  if (auto parsed = iceberg::TableMetadataFromJsonValue(metadata); !parsed) {
    return InvalidArgument("the create request produces invalid metadata: {}", parsed.error().message());
  }
  if (stage) {
    return LoadedTable{"", std::move(metadata), {}};
  }
  std::string location = NextMetadataLocation(resolved.location, "");
  FLOE_RETURN_IF_ERROR(files_->Write(location, metadata.dump()));
  Status inserted = pointers_->SwapPointers({{id, std::nullopt, location}});
  if (!inserted) {
    if (inserted.error().kind() == ErrorKind::kAlreadyExists) {
      (void)files_->Delete(location);
    }
    return std::unexpected(std::move(inserted).error());
  }
  return LoadedTable{location, std::move(metadata), {}};
}

Result<LoadedTable> PointerCatalog::RegisterTable(const TableIdentifier& id, std::string_view metadata_location,
                                                  bool overwrite) {
  FLOE_RETURN_IF_ERROR(ValidateTableName(id.name));
  FLOE_RETURN_IF_ERROR(RequireNamespace(id.ns));
  // Both the file named and the folder it claims must be allowed: the pointer decides where
  // later commits write and what a purge deletes.
  FLOE_RETURN_IF_ERROR(files_->policy().CheckTableLocation(metadata_location));
  FLOE_ASSIGN_OR_RETURN(nlohmann::json metadata, ReadMetadata(std::string(metadata_location)));
  FLOE_ASSIGN_OR_RETURN(auto existing, pointers_->GetPointer(id));
  if (existing && !overwrite) {
    return AlreadyExists("table already exists: {}", IdentifierToString(id));
  }
  FLOE_RETURN_IF_ERROR(CheckNewLocation(id, metadata.value("location", "")));
  FLOE_RETURN_IF_ERROR(pointers_->SwapPointers({{id, existing, std::string(metadata_location)}}));
  return LoadedTable{std::string(metadata_location), std::move(metadata), {}};
}

Status PointerCatalog::RenameTable(const TableIdentifier& from, const TableIdentifier& to) {
  FLOE_RETURN_IF_ERROR(ValidateTableName(to.name));
  FLOE_ASSIGN_OR_RETURN(auto source, pointers_->GetPointer(from));
  if (!source) {
    return NoSuchTable(from);
  }
  FLOE_RETURN_IF_ERROR(RequireNamespace(to.ns));
  return pointers_->RenameTable(from, to);
}

Status PointerCatalog::DropTable(const TableIdentifier& id, bool purge) {
  FLOE_ASSIGN_OR_RETURN(auto pointer, pointers_->GetPointer(id));
  if (!pointer) {
    return NoSuchTable(id);
  }
  std::string table_location;
  if (purge) {
    auto metadata = ReadMetadata(*pointer);
    if (metadata) {
      table_location = metadata->value("location", "");
    } else if (metadata.error().kind() == ErrorKind::kPermissionDenied) {
      // Metadata outside the allowed locations: its folder is not this catalog's to delete.
      return std::unexpected(metadata.error().WithContext(fmt::format("purging {}", IdentifierToString(id))));
    }
    if (!table_location.empty()) {
      // Checked before the pointer goes, so a refused purge leaves the table as it was.
      FLOE_ASSIGN_OR_RETURN_CTX(table_location, files_->policy().CheckTableLocation(table_location),
                                fmt::format("purging {}", IdentifierToString(id)));
    }
  }
  FLOE_RETURN_IF_ERROR(pointers_->DeletePointer(id));
  if (!table_location.empty()) {
    FLOE_RETURN_IF_ERROR_CTX(files_->DeleteFolder(table_location), fmt::format("purging {}", table_location));
  }
  return OkStatus();
}

Result<LoadedTable> PointerCatalog::CommitTable(const TableCommit& commit) {
  FLOE_ASSIGN_OR_RETURN(auto tables, CommitAll({commit}));
  return std::move(tables[0]);
}

Status PointerCatalog::CommitTransaction(const std::vector<TableCommit>& commits) {
  std::set<TableIdentifier> seen;
  for (const TableCommit& commit : commits) {
    if (!seen.insert(commit.id).second) {
      return InvalidArgument("table {} appears twice in one transaction", IdentifierToString(commit.id));
    }
  }
  FLOE_ASSIGN_OR_RETURN(auto tables, CommitAll(commits));
  return OkStatus();
}

std::vector<std::unique_lock<std::mutex>> PointerCatalog::LockTables(const std::vector<TableCommit>& commits) {
  std::vector<std::mutex*> mutexes;
  {
    std::lock_guard lock(locks_mu_);
    std::set<TableIdentifier> ids;
    for (const TableCommit& commit : commits) {
      ids.insert(commit.id);
    }
    for (const TableIdentifier& id : ids) {
      auto& slot = table_locks_[id];
      if (slot == nullptr) {
        slot = std::make_unique<std::mutex>();
      }
      mutexes.push_back(slot.get());
    }
  }
  std::vector<std::unique_lock<std::mutex>> held;
  for (std::mutex* mutex : mutexes) {
    held.emplace_back(*mutex);
  }
  return held;
}

Result<std::vector<LoadedTable>> PointerCatalog::CommitAll(const std::vector<TableCommit>& commits) {
  if (commits.empty()) {
    return InvalidArgument("a commit needs at least one table");
  }
  auto turns = LockTables(commits);
  for (int attempt = 0; attempt < kMaxCommitAttempts; ++attempt) {
    std::vector<PointerSwap> swaps;
    std::vector<LoadedTable> results;
    std::vector<std::shared_ptr<const iceberg::TableMetadata>> models;  // Of results, in order.
    for (const TableCommit& commit : commits) {
      FLOE_ASSIGN_OR_RETURN(auto pointer, pointers_->GetPointer(commit.id));
      std::optional<nlohmann::json> base;
      if (pointer) {
        FLOE_ASSIGN_OR_RETURN(base, ReadMetadata(*pointer));
      } else if (!iceberg::HasAssertCreate(commit.requirements)) {
        return NoSuchTable(commit.id);
      } else {
        FLOE_RETURN_IF_ERROR(RequireNamespace(commit.id.ns));
      }
      std::shared_ptr<const iceberg::TableMetadata> current;
      if (base) {
        FLOE_ASSIGN_OR_RETURN_CTX(current, MetadataModel(*pointer, *base), IdentifierToString(commit.id));
      }
      FLOE_RETURN_IF_ERROR_CTX(iceberg::ValidateRequirements(commit.requirements, current.get()),
                               IdentifierToString(commit.id));
      std::optional<iceberg::TableMetadataBuilder> builder;
      if (base) {
        builder.emplace(*base, *pointer, Clock::System().NowMillis());
      } else {
        builder.emplace(Clock::System().NowMillis());
        // A create through a commit: start at the default location unless an update moves it.
        if (auto location = DefaultLocation(commit.id)) {
          FLOE_RETURN_IF_ERROR(builder->SetLocation(*location));
        }
      }
      FLOE_RETURN_IF_ERROR_CTX(iceberg::ApplyUpdates(commit.updates, *builder), IdentifierToString(commit.id));
      FLOE_ASSIGN_OR_RETURN_CTX(nlohmann::json metadata, builder->Build(), IdentifierToString(commit.id));
      // A create or a set-location chooses where the table's files go: confine it.
      std::string new_location = metadata.value("location", "");
      if (!base || base->value("location", "") != new_location) {
        FLOE_ASSIGN_OR_RETURN(new_location, CheckNewLocation(commit.id, new_location));
        metadata["location"] = new_location;
      }
      // Never write metadata floe's own model cannot read back; the model is kept for the
      // next commit's requirements.
      auto parsed = iceberg::TableMetadataFromJsonValue(metadata);
      if (!parsed) {
        return InvalidArgument("{}: the updates produce invalid metadata: {}", IdentifierToString(commit.id),
                               parsed.error().message());
      }
      models.push_back(std::make_shared<const iceberg::TableMetadata>(std::move(*parsed)));
      std::string location = NextMetadataLocation(metadata.value("location", ""), pointer.value_or(""));
      swaps.push_back({commit.id, pointer, location});
      results.push_back({location, std::move(metadata), {}});
    }
    std::vector<std::string> written;
    Status status = OkStatus();
    for (const LoadedTable& table : results) {
      status = files_->Write(table.metadata_location, table.metadata.dump());
      if (!status) {
        break;
      }
      written.push_back(table.metadata_location);
    }
    if (status) {
      status = pointers_->SwapPointers(swaps);
    }
    if (status) {
      for (size_t i = 0; i < results.size(); ++i) {
        CacheMetadata(results[i].metadata_location, std::make_shared<const nlohmann::json>(results[i].metadata),
                      models[i]);
      }
      return results;
    }
    ErrorKind kind = status.error().kind();
    if (kind == ErrorKind::kConflict || kind == ErrorKind::kAlreadyExists || written.size() < results.size()) {
      // The pointers were not changed: these files are referenced by nothing.
      for (const std::string& location : written) {
        (void)files_->Delete(location);
      }
    }
    if (kind != ErrorKind::kConflict && kind != ErrorKind::kAlreadyExists) {
      return std::unexpected(std::move(status).error());
    }
    // Lost a race: redo on the winner's metadata; requirements decide whether that is allowed.
  }
  return Conflict("commit gave up after {} lost races; retry", kMaxCommitAttempts);
}

}  // namespace floe::catalog

// PointerCatalog's views: the pointer store's view rows and view metadata files
// (iceberg/view_metadata.h), written as <location>/metadata/<NNNNN>-<uuid>.metadata.json like a
// table's. A replace is a commit: load, check assert-view-uuid, apply the updates, write the
// next file, swap the pointer from the location loaded, and redo on a lost race.

#include "base/clock.h"
#include "catalog/pointer_catalog.h"
#include "iceberg/table_operations.h"
#include "iceberg/view_metadata.h"

namespace floe::catalog {
namespace {

constexpr int kMaxViewCommitAttempts = 64;

std::unexpected<Error> NoSuchView(const TableIdentifier& id) {
  return CodedError(ErrorCode::kNoSuchView, "no such view: {}", IdentifierToString(id));
}

// Writes `metadata` as the file after `previous` and swaps the view's pointer to it. A file whose
// swap certainly failed is deleted; one whose outcome is unknown is kept (the pointer may name it).
Result<LoadedView> WriteAndSwap(MetadataFileIo& files, MetadataPointerStore& pointers, const TableIdentifier& id,
                                const iceberg::ViewMetadata& metadata, const std::optional<std::string>& previous) {
  std::string location = NextMetadataLocation(metadata.location, previous.value_or(""));
  nlohmann::json json = iceberg::ViewMetadataToJsonValue(metadata);
  FLOE_RETURN_IF_ERROR(files.Write(location, json.dump()));
  Status swapped = pointers.SwapViewPointer({id, previous, location});
  if (!swapped) {
    ErrorKind kind = swapped.error().kind();
    if (kind == ErrorKind::kConflict || kind == ErrorKind::kAlreadyExists || kind == ErrorKind::kNotFound) {
      (void)files.Delete(location);
    }
    return std::unexpected(std::move(swapped).error());
  }
  return LoadedView{location, std::move(json), {}};
}

}  // namespace

Result<std::vector<TableIdentifier>> PointerCatalog::ListViews(const Namespace& ns) { return pointers_->ListViews(ns); }

Result<bool> PointerCatalog::ViewExists(const TableIdentifier& id) {
  FLOE_ASSIGN_OR_RETURN(auto pointer, pointers_->GetViewPointer(id));
  return pointer.has_value();
}

Result<LoadedView> PointerCatalog::LoadView(const TableIdentifier& id) {
  FLOE_ASSIGN_OR_RETURN(auto pointer, pointers_->GetViewPointer(id));
  if (!pointer) {
    return NoSuchView(id);
  }
  FLOE_ASSIGN_OR_RETURN_CTX(std::string text, files_->Read(*pointer),
                            fmt::format("reading view metadata {}", *pointer));
  FLOE_ASSIGN_OR_RETURN(iceberg::ViewMetadata metadata, iceberg::ViewMetadataFromJson(text, *pointer));
  return LoadedView{*pointer, iceberg::ViewMetadataToJsonValue(metadata), {}};
}

Result<LoadedView> PointerCatalog::CreateView(const TableIdentifier& id, const ViewCreation& creation) {
  FLOE_RETURN_IF_ERROR(ValidateTableName(id.name));
  FLOE_RETURN_IF_ERROR(RequireNamespace(id.ns));
  // Checked before any file is written; the insert checks again against concurrent creates.
  FLOE_ASSIGN_OR_RETURN(auto table, pointers_->GetPointer(id));
  if (table) {
    return AlreadyExists("table already exists: {}", IdentifierToString(id));
  }
  FLOE_ASSIGN_OR_RETURN(auto view, pointers_->GetViewPointer(id));
  if (view) {
    return AlreadyExists("view already exists: {}", IdentifierToString(id));
  }
  // The request's version describes its request's schema; -1 says so too.
  if (creation.version.schema_id != creation.schema.schema_id() && creation.version.schema_id != -1) {
    return InvalidArgument("view {}: the view-version names schema {}, but the request's schema is {}",
                           IdentifierToString(id), creation.version.schema_id, creation.schema.schema_id());
  }
  std::string location = creation.location;
  if (location.empty()) {
    FLOE_ASSIGN_OR_RETURN(location, DefaultLocation(id));
  }
  // Allowed, and overlapping no table's or other view's folder (a purge of one would delete the
  // other's files).
  FLOE_ASSIGN_OR_RETURN(location, CheckNewLocation(id, location));
  FLOE_ASSIGN_OR_RETURN_CTX(
      iceberg::ViewMetadata metadata,
      iceberg::ApplyViewUpdates(std::nullopt,
                                iceberg::ViewCreationUpdates(iceberg::NewUuid(), location, creation.schema,
                                                             creation.version, creation.properties),
                                Clock::System().NowMillis()),
      fmt::format("creating view {}", IdentifierToString(id)));
  return WriteAndSwap(*files_, *pointers_, id, metadata, std::nullopt);
}

Result<LoadedView> PointerCatalog::CommitView(const ViewCommit& commit) {
  for (int attempt = 0;; ++attempt) {
    FLOE_ASSIGN_OR_RETURN(auto pointer, pointers_->GetViewPointer(commit.id));
    if (!pointer) {
      return NoSuchView(commit.id);
    }
    FLOE_ASSIGN_OR_RETURN_CTX(std::string text, files_->Read(*pointer),
                              fmt::format("reading view metadata {}", *pointer));
    FLOE_ASSIGN_OR_RETURN(iceberg::ViewMetadata base, iceberg::ViewMetadataFromJson(text, *pointer));
    for (const iceberg::AssertViewUuid& requirement : commit.requirements) {
      FLOE_RETURN_IF_ERROR_CTX(iceberg::CheckViewRequirement(base, requirement), IdentifierToString(commit.id));
    }
    FLOE_ASSIGN_OR_RETURN_CTX(iceberg::ViewMetadata next,
                              iceberg::ApplyViewUpdates(base, commit.updates, Clock::System().NowMillis()),
                              IdentifierToString(commit.id));
    if (next.location != base.location) {
      FLOE_ASSIGN_OR_RETURN(next.location, CheckNewLocation(commit.id, next.location));
    }
    auto written = WriteAndSwap(*files_, *pointers_, commit.id, next, pointer);
    if (written || written.error().kind() != ErrorKind::kConflict || attempt + 1 >= kMaxViewCommitAttempts) {
      return written;
    }
    // Lost the swap to another writer: redo on its metadata, where the requirements decide.
  }
}

Status PointerCatalog::RenameView(const TableIdentifier& from, const TableIdentifier& to) {
  FLOE_RETURN_IF_ERROR(ValidateTableName(to.name));
  FLOE_ASSIGN_OR_RETURN(auto source, pointers_->GetViewPointer(from));
  if (!source) {
    return NoSuchView(from);
  }
  FLOE_RETURN_IF_ERROR(RequireNamespace(to.ns));
  return pointers_->RenameView(from, to);
}

Status PointerCatalog::DropView(const TableIdentifier& id) { return pointers_->DeleteViewPointer(id); }

}  // namespace floe::catalog

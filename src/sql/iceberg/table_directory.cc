#include "sql/iceberg/table_directory.h"

#include <filesystem>
#include <mutex>

#include "catalog/catalog_table_operations.h"
#include "catalog/open_catalog.h"
#include "iceberg/filesystem_catalog.h"
#include "iceberg/schema_json.h"
#include "iceberg/table.h"
#include "iceberg/view_update.h"

namespace floe::sql::iceberg_sql {
namespace {

// Lists the "folders" directly under `prefix` (without the trailing '/').
Result<std::vector<std::string>> ListFolders(io::ObjectStore& store, const std::string& prefix) {
  std::vector<std::string> out;
  std::optional<std::string> token;
  do {
    FLOE_ASSIGN_OR_RETURN(io::ListResult page, store.List(prefix, "/", token));
    for (const std::string& p : page.common_prefixes) {
      std::string name = p.substr(prefix.size());
      while (!name.empty() && name.back() == '/') name.pop_back();
      if (!name.empty() && name[0] != '.' && name[0] != '_') out.push_back(name);
    }
    token = page.next_token;
  } while (token);
  return out;
}

Status CheckName(const std::string& name) {
  if (name.empty() || name == "." || name == ".." || name.find('/') != std::string::npos ||
      name.find('\\') != std::string::npos) {
    return InvalidArgument("'{}' is not a valid schema or table name for a warehouse folder", name);
  }
  return OkStatus();
}

// A folder table whose Refresh re-reads only the version hint (and checks that no later version
// exists) when the hinted version is the one it parsed last: metadata files are immutable, so
// the parsed metadata is reused and a query's pointer check costs a read and two probes.
class CachingFolderOperations final : public iceberg::TableOperations {
 public:
  explicit CachingFolderOperations(std::shared_ptr<iceberg::FileSystemTableOperations> inner) : inner_(std::move(inner)) {}

  Result<iceberg::VersionedMetadata> Refresh() override {
    std::optional<iceberg::VersionedMetadata> last;
    {
      std::lock_guard lock(mutex_);
      last = last_;
    }
    if (last && last->version > 0) {
      auto hint = inner_->store().Get(inner_->MetadataKey("version-hint.text"));
      if (hint) {
        std::string text = *hint;
        while (!text.empty() && (text.back() == '\n' || text.back() == '\r' || text.back() == ' ')) text.pop_back();
        int64_t next = last->version + 1;
        bool current = text == std::to_string(last->version) &&
                       !inner_->store().Head(inner_->MetadataKey(fmt::format("v{}.metadata.json", next))) &&
                       !inner_->store().Head(inner_->MetadataKey(fmt::format("v{}.gz.metadata.json", next)));
        if (current) return *last;
      }
    }
    FLOE_ASSIGN_OR_RETURN(iceberg::VersionedMetadata fresh, inner_->Refresh());
    Remember(fresh);
    return fresh;
  }

  Result<iceberg::VersionedMetadata> Commit(const iceberg::VersionedMetadata& base,
                                            const iceberg::TableChange& change) override {
    FLOE_ASSIGN_OR_RETURN(iceberg::VersionedMetadata committed, inner_->Commit(base, change));
    Remember(committed);
    return committed;
  }

  io::ObjectStore& store() override { return inner_->store(); }
  Result<std::string> KeyForLocation(std::string_view location) const override { return inner_->KeyForLocation(location); }
  std::string NewLocation(std::string_view relative) const override { return inner_->NewLocation(relative); }
  const std::string& table_key() const override { return inner_->table_key(); }

 private:
  void Remember(const iceberg::VersionedMetadata& v) {
    std::lock_guard lock(mutex_);
    if (!last_ || v.version >= last_->version) last_ = v;
  }

  std::shared_ptr<iceberg::FileSystemTableOperations> inner_;
  std::mutex mutex_;
  std::optional<iceberg::VersionedMetadata> last_;  // Guarded by mutex_.
};

class WarehouseDirectory final : public TableDirectory {
 public:
  WarehouseDirectory(std::unique_ptr<iceberg::FileSystemCatalog> fs, std::shared_ptr<io::ObjectStore> store)
      : fs_(std::move(fs)), store_(std::move(store)) {}

  Result<std::vector<std::string>> SchemaNames() override { return ListFolders(fs_->store(), ""); }

  Result<std::vector<std::string>> TableNames(const std::string& schema) override {
    FLOE_RETURN_IF_ERROR(CheckName(schema));
    FLOE_ASSIGN_OR_RETURN(auto folders, ListFolders(fs_->store(), schema + "/"));
    std::vector<std::string> out;
    for (const std::string& f : folders) {
      FLOE_ASSIGN_OR_RETURN(io::ListResult meta, fs_->store().List(schema + "/" + f + "/metadata/", "/", std::nullopt, 1));
      if (!meta.objects.empty() || !meta.common_prefixes.empty()) out.push_back(f);
    }
    return out;
  }

  Result<std::shared_ptr<iceberg::TableOperations>> Open(const std::string& schema, const std::string& table) override {
    FLOE_RETURN_IF_ERROR(CheckName(schema));
    FLOE_RETURN_IF_ERROR(CheckName(table));
    std::lock_guard lock(mutex_);
    std::string key = schema + "/" + table;
    auto it = ops_.find(key);
    if (it != ops_.end()) return it->second;
    auto ops = std::make_shared<CachingFolderOperations>(std::make_shared<iceberg::FileSystemTableOperations>(store_, key));
    FLOE_ASSIGN_OR_RETURN(iceberg::VersionedMetadata current, ops->Refresh());
    (void)current;
    ops_[key] = ops;
    return ops;
  }

  Status CreateSchema(const std::string& schema) override {
    FLOE_RETURN_IF_ERROR(CheckName(schema));
    FLOE_ASSIGN_OR_RETURN(auto schemas, SchemaNames());
    for (const std::string& s : schemas) {
      if (s == schema) return AlreadyExists("schema {} already exists", schema);
    }
    // Object stores have no empty folders: a marker object makes the schema listable.
    return fs_->store().Put(schema + "/.floe-schema", "");
  }

  Status DropSchema(const std::string& schema) override {
    FLOE_ASSIGN_OR_RETURN(auto tables, TableNames(schema));
    if (!tables.empty()) return Conflict("schema {} is not empty ({} tables)", schema, tables.size());
    return DeletePrefix(schema + "/");
  }

  Status CreateTable(const std::string& schema, const std::string& table, const iceberg::Schema& columns,
                     const std::vector<iceberg::PartitionField>& partition,
                     const std::map<std::string, std::string>& properties) override {
    FLOE_RETURN_IF_ERROR(CheckName(schema));
    FLOE_RETURN_IF_ERROR(CheckName(table));
    FLOE_ASSIGN_OR_RETURN(auto created, fs_->CreateTable({{schema}, table}, columns, partition, properties));
    (void)created;
    return OkStatus();
  }

  Status DropTable(const std::string& schema, const std::string& table) override {
    FLOE_ASSIGN_OR_RETURN(auto ops, Open(schema, table));
    (void)ops;
    {
      std::lock_guard lock(mutex_);
      ops_.erase(schema + "/" + table);
    }
    return DeletePrefix(schema + "/" + table + "/");
  }

 private:
  Status DeletePrefix(const std::string& prefix) {
    std::optional<std::string> token;
    do {
      FLOE_ASSIGN_OR_RETURN(io::ListResult page, fs_->store().List(prefix, "", token));
      std::vector<std::string> keys;
      for (const io::ObjectInfo& o : page.objects) keys.push_back(o.key);
      if (!keys.empty()) FLOE_RETURN_IF_ERROR(fs_->store().DeleteMany(keys));
      token = page.next_token;
    } while (token);
    return OkStatus();
  }

  std::unique_ptr<iceberg::FileSystemCatalog> fs_;
  std::shared_ptr<io::ObjectStore> store_;  // The same folder as fs_'s.
  std::mutex mutex_;
  std::map<std::string, std::shared_ptr<iceberg::TableOperations>> ops_;  // Guarded by mutex_.
};

// A catalog-service table whose Refresh asks the catalog for the table's current metadata
// location and reuses the metadata it parsed last when that location has not moved (metadata
// files are immutable); a moved pointer is loaded through the inner operations.
class CachingCatalogOperations final : public iceberg::TableOperations {
 public:
  CachingCatalogOperations(std::shared_ptr<catalog::Catalog> catalog, catalog::TableIdentifier id,
                           std::shared_ptr<catalog::CatalogTableOperations> inner)
      : catalog_(std::move(catalog)), id_(std::move(id)), inner_(std::move(inner)) {}

  Result<iceberg::VersionedMetadata> Refresh() override {
    FLOE_ASSIGN_OR_RETURN(catalog::LoadedTable loaded, catalog_->LoadTable(id_));
    {
      std::lock_guard lock(mutex_);
      if (last_ && !loaded.metadata_location.empty() && loaded.metadata_location == last_pointer_) return *last_;
    }
    FLOE_ASSIGN_OR_RETURN(iceberg::VersionedMetadata fresh, inner_->Refresh());
    std::lock_guard lock(mutex_);
    last_ = fresh;
    // The pointer the inner load saw may be newer than `loaded`'s; remember the one it parsed.
    last_pointer_ = fresh.location;
    return fresh;
  }

  Result<iceberg::VersionedMetadata> Commit(const iceberg::VersionedMetadata& base,
                                            const iceberg::TableChange& change) override {
    return inner_->Commit(base, change);
  }
  io::ObjectStore& store() override { return inner_->store(); }
  Result<std::string> KeyForLocation(std::string_view location) const override { return inner_->KeyForLocation(location); }
  std::string NewLocation(std::string_view relative) const override { return inner_->NewLocation(relative); }
  const std::string& table_key() const override { return inner_->table_key(); }

 private:
  std::shared_ptr<catalog::Catalog> catalog_;
  catalog::TableIdentifier id_;
  std::shared_ptr<catalog::CatalogTableOperations> inner_;
  std::mutex mutex_;
  std::optional<iceberg::VersionedMetadata> last_;  // Guarded by mutex_.
  std::string last_pointer_;                        // Guarded by mutex_.
};

class ServiceDirectory final : public TableDirectory {
 public:
  ServiceDirectory(std::shared_ptr<catalog::Catalog> catalog, std::string relative_root)
      : catalog_(std::move(catalog)), relative_root_(std::move(relative_root)) {}

  Result<std::vector<std::string>> SchemaNames() override {
    FLOE_ASSIGN_OR_RETURN(auto namespaces, catalog_->ListNamespaces({}));
    std::vector<std::string> out;
    for (const catalog::Namespace& ns : namespaces) out.push_back(catalog::NamespaceToString(ns));
    return out;
  }

  Result<std::vector<std::string>> TableNames(const std::string& schema) override {
    FLOE_ASSIGN_OR_RETURN(catalog::Namespace ns, catalog::NamespaceFromString(schema));
    FLOE_ASSIGN_OR_RETURN(auto ids, catalog_->ListTables(ns));
    std::vector<std::string> out;
    for (const catalog::TableIdentifier& id : ids) out.push_back(id.name);
    return out;
  }

  Result<std::shared_ptr<iceberg::TableOperations>> Open(const std::string& schema, const std::string& table) override {
    std::string key = schema + "\x1f" + table;
    {
      std::lock_guard lock(mutex_);
      auto it = ops_.find(key);
      if (it != ops_.end()) return it->second;
    }
    FLOE_ASSIGN_OR_RETURN(catalog::Namespace ns, catalog::NamespaceFromString(schema));
    FLOE_ASSIGN_OR_RETURN(auto inner, catalog::CatalogTableOperations::Open(catalog_, {ns, table}, relative_root_));
    auto ops = std::make_shared<CachingCatalogOperations>(catalog_, catalog::TableIdentifier{ns, table}, std::move(inner));
    std::lock_guard lock(mutex_);
    ops_[key] = ops;
    return std::shared_ptr<iceberg::TableOperations>(ops);
  }

  Status CreateSchema(const std::string& schema) override {
    FLOE_ASSIGN_OR_RETURN(catalog::Namespace ns, catalog::NamespaceFromString(schema));
    return catalog_->CreateNamespace(ns, {});
  }

  Status DropSchema(const std::string& schema) override {
    FLOE_ASSIGN_OR_RETURN(catalog::Namespace ns, catalog::NamespaceFromString(schema));
    return catalog_->DropNamespace(ns);
  }

  Status CreateTable(const std::string& schema, const std::string& table, const iceberg::Schema& columns,
                     const std::vector<iceberg::PartitionField>& partition,
                     const std::map<std::string, std::string>& properties) override {
    FLOE_ASSIGN_OR_RETURN(catalog::Namespace ns, catalog::NamespaceFromString(schema));
    catalog::TableCreation creation;
    creation.schema = iceberg::SchemaToJsonValue(columns);
    creation.partition_spec = iceberg::PartitionSpecToJsonValue(iceberg::PartitionSpec(0, partition));
    creation.properties = nlohmann::json(properties);
    FLOE_ASSIGN_OR_RETURN(catalog::LoadedTable created, catalog_->CreateTable({ns, table}, creation, /*stage=*/false));
    (void)created;
    return OkStatus();
  }

  Result<std::vector<std::string>> ViewNames(const std::string& schema) override {
    FLOE_ASSIGN_OR_RETURN(catalog::Namespace ns, catalog::NamespaceFromString(schema));
    FLOE_ASSIGN_OR_RETURN(auto ids, catalog_->ListViews(ns));
    std::vector<std::string> out;
    for (const catalog::TableIdentifier& id : ids) out.push_back(id.name);
    return out;
  }

  Result<iceberg::ViewMetadata> LoadView(const std::string& schema, const std::string& view) override {
    FLOE_ASSIGN_OR_RETURN(catalog::Namespace ns, catalog::NamespaceFromString(schema));
    FLOE_ASSIGN_OR_RETURN(catalog::LoadedView loaded, catalog_->LoadView({ns, view}));
    return iceberg::ViewMetadataFromJsonValue(loaded.metadata);
  }

  Status CreateView(const std::string& schema, const std::string& view, const iceberg::Schema& columns,
                    const iceberg::ViewVersion& version, const std::map<std::string, std::string>& properties,
                    bool replace) override {
    FLOE_ASSIGN_OR_RETURN(catalog::Namespace ns, catalog::NamespaceFromString(schema));
    catalog::TableIdentifier id{ns, view};
    if (replace) {
      auto existing = LoadView(schema, view);
      if (existing.has_value()) {
        catalog::ViewCommit commit;
        commit.id = id;
        commit.requirements.push_back(iceberg::AssertViewUuid{existing->view_uuid});
        commit.updates = iceberg::ViewReplaceUpdates(columns, version);
        if (!properties.empty()) {
          nlohmann::json update = {{"action", "set-properties"}, {"updates", properties}};
          FLOE_ASSIGN_OR_RETURN(iceberg::ViewUpdate set, iceberg::ViewUpdateFromJson(update));
          commit.updates.push_back(std::move(set));
        }
        FLOE_ASSIGN_OR_RETURN(catalog::LoadedView replaced, catalog_->CommitView(commit));
        (void)replaced;
        return OkStatus();
      }
      if (existing.error().kind() != ErrorKind::kNotFound) return std::unexpected(existing.error());
    }
    catalog::ViewCreation creation;
    creation.schema = columns;
    creation.version = version;
    creation.properties = catalog::Properties(properties.begin(), properties.end());
    FLOE_ASSIGN_OR_RETURN(catalog::LoadedView created, catalog_->CreateView(id, creation));
    (void)created;
    return OkStatus();
  }

  Status DropView(const std::string& schema, const std::string& view) override {
    FLOE_ASSIGN_OR_RETURN(catalog::Namespace ns, catalog::NamespaceFromString(schema));
    return catalog_->DropView({ns, view});
  }

  Status DropTable(const std::string& schema, const std::string& table) override {
    FLOE_ASSIGN_OR_RETURN(catalog::Namespace ns, catalog::NamespaceFromString(schema));
    {
      std::lock_guard lock(mutex_);
      ops_.erase(schema + "\x1f" + table);
    }
    return catalog_->DropTable({ns, table}, /*purge=*/true);
  }

 private:
  std::shared_ptr<catalog::Catalog> catalog_;
  std::string relative_root_;
  std::mutex mutex_;
  std::map<std::string, std::shared_ptr<iceberg::TableOperations>> ops_;  // Guarded by mutex_.
};

}  // namespace

Result<std::vector<std::string>> TableDirectory::ViewNames(const std::string&) { return std::vector<std::string>{}; }

Result<iceberg::ViewMetadata> TableDirectory::LoadView(const std::string& schema, const std::string& view) {
  return CodedError(ErrorCode::kNoSuchView, "view {}.{} does not exist", schema, view);
}

Status TableDirectory::CreateView(const std::string& schema, const std::string& view, const iceberg::Schema&,
                                  const iceberg::ViewVersion&, const std::map<std::string, std::string>&, bool) {
  return NotImplemented("cannot create view {}.{}: a warehouse folder has no catalog to keep views in (use --catalog)",
                        schema, view);
}

Status TableDirectory::DropView(const std::string& schema, const std::string& view) {
  return CodedError(ErrorCode::kNoSuchView, "view {}.{} does not exist", schema, view);
}

Result<std::unique_ptr<TableDirectory>> OpenCatalogDirectory(const std::string& uri, const std::string& warehouse) {
  FLOE_ASSIGN_OR_RETURN_CTX(std::unique_ptr<catalog::Catalog> opened,
                            catalog::OpenCatalog({.uri = uri, .warehouse = warehouse}), fmt::format("--catalog {}", uri));
  // A SQLite catalog's relative table locations (PyIceberg writes them) resolve beside its file.
  std::string relative_root;
  if (uri.starts_with("sqlite:")) {
    std::error_code ignored;
    relative_root = std::filesystem::absolute(uri.substr(7), ignored).parent_path().string();
  }
  return std::make_unique<ServiceDirectory>(std::shared_ptr<catalog::Catalog>(std::move(opened)), relative_root);
}

Result<std::unique_ptr<TableDirectory>> OpenWarehouseDirectory(const std::string& uri) {
  FLOE_ASSIGN_OR_RETURN(auto fs, iceberg::FileSystemCatalog::Open(uri));
  // The same root as the catalog's (Open normalised it and created the folder).
  std::string root = fs->store().Uri("");
  while (root.size() > 1 && root.back() == '/') root.pop_back();
  FLOE_ASSIGN_OR_RETURN(auto store, io::OpenObjectStore(root));
  return std::make_unique<WarehouseDirectory>(std::move(fs), std::shared_ptr<io::ObjectStore>(std::move(store)));
}

}  // namespace floe::sql::iceberg_sql

#include "catalog/open_catalog.h"

#include <algorithm>
#include <chrono>
#include <filesystem>
#include <thread>

#include "catalog/pointer_catalog.h"
#include "catalog/rest_catalog.h"
#include "catalog/sql_catalog.h"

namespace floe::catalog {

Result<std::unique_ptr<Catalog>> OpenCatalog(const CatalogOptions& options) {
  const std::string& uri = options.uri;
  if (uri.starts_with("http://") || uri.starts_with("https://")) {
    FLOE_ASSIGN_OR_RETURN(auto rest, RestCatalog::Open(uri, options.warehouse));
    return std::unique_ptr<Catalog>(std::move(rest));
  }
  SqlConnectionPool::Connect connect;
  std::string relative_root;
  bool serialize_writes = false;
  if (uri.starts_with("sqlite:")) {
    std::string path = uri.substr(7);
    if (path.starts_with("//")) {
      path = path.substr(2);  // sqlite:///abs/path
    }
    if (path.empty()) {
      return InvalidArgument("catalog URI '{}': sqlite:PATH needs a path", uri);
    }
    std::error_code error;
    std::filesystem::path absolute = std::filesystem::absolute(path, error);
    if (absolute.has_parent_path()) {
      std::filesystem::create_directories(absolute.parent_path(), error);
    }
    relative_root = absolute.parent_path().string();
    connect = [path] { return OpenSqlite(path); };
    serialize_writes = true;
  } else if (uri.starts_with("postgresql://") || uri.starts_with("postgres://")) {
    connect = [uri] { return OpenPostgres(uri); };
  } else {
    return InvalidArgument("catalog URI '{}': expected sqlite:PATH, postgresql://... or http(s)://host:port", uri);
  }
  // Two processes opening a new SQLite catalog at once (two stream workers starting together)
  // race on its switch to WAL and its table creation, where SQLite answers "busy" at once
  // rather than waiting: such an open is tried again for a while.
  auto opened = SqlCatalog::Open(connect, options.catalog_name, serialize_writes);
  for (int attempt = 1; !opened && opened.error().kind() == ErrorKind::kUnavailable && attempt < 40; ++attempt) {
    std::this_thread::sleep_for(std::chrono::milliseconds(std::min(50 * attempt, 500)));
    opened = SqlCatalog::Open(connect, options.catalog_name, serialize_writes);
  }
  FLOE_ASSIGN_OR_RETURN_CTX(auto sql, std::move(opened), fmt::format("opening catalog {}", uri));
  std::vector<std::string> roots = options.allowed_locations;
  if (roots.empty() && !options.warehouse.empty()) {
    roots.push_back(options.warehouse);
  }
  FLOE_ASSIGN_OR_RETURN(LocationPolicy policy, LocationPolicy::Make(roots));
  return std::unique_ptr<Catalog>(std::make_unique<PointerCatalog>(
      std::move(sql), std::make_unique<MetadataFileIo>(relative_root, std::move(policy)), options.warehouse));
}

}  // namespace floe::catalog

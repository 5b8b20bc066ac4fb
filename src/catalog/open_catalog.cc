#include "catalog/open_catalog.h"

#include <algorithm>
#include <chrono>
#include <filesystem>
#include <thread>

#include "catalog/pointer_catalog.h"
#include "catalog/rest_catalog.h"
#include "catalog/sql_catalog.h"

namespace floe::catalog {
namespace {

// How to reach a SQL catalog's database, from its URI.
struct SqlTarget {
  SqlConnectionPool::Connect connect;
  std::string relative_root;  // SQLite: relative metadata locations are under the file's folder.
  bool serialize_writes = false;
};

Result<SqlTarget> SqlTargetFor(const std::string& uri) {
  SqlTarget target;
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
    target.relative_root = absolute.parent_path().string();
    target.connect = [path] { return OpenSqlite(path); };
    target.serialize_writes = true;
  } else if (uri.starts_with("postgresql://") || uri.starts_with("postgres://")) {
    target.connect = [uri] { return OpenPostgres(uri); };
  } else {
    return InvalidArgument("catalog URI '{}': expected sqlite:PATH, postgresql://... or http(s)://host:port",
                           RedactCatalogUri(uri));
  }
  return target;
}

// Two processes opening a new SQLite catalog at once (two stream workers starting together)
// race on its switch to WAL and its table creation, where SQLite answers "busy" at once rather
// than waiting: such an open is tried again for a while.
Result<std::unique_ptr<SqlCatalog>> OpenRetrying(const SqlTarget& target, const std::string& catalog_name) {
  auto opened = SqlCatalog::Open(target.connect, catalog_name, target.serialize_writes);
  for (int attempt = 1; !opened && opened.error().kind() == ErrorKind::kUnavailable && attempt < 40; ++attempt) {
    std::this_thread::sleep_for(std::chrono::milliseconds(std::min(50 * attempt, 500)));
    opened = SqlCatalog::Open(target.connect, catalog_name, target.serialize_writes);
  }
  return opened;
}

}  // namespace

Result<std::unique_ptr<Catalog>> OpenCatalog(const CatalogOptions& options) {
  const std::string& uri = options.uri;
  if (uri.starts_with("http://") || uri.starts_with("https://")) {
    FLOE_ASSIGN_OR_RETURN(auto rest, RestCatalog::Open(uri, options.warehouse));
    return std::unique_ptr<Catalog>(std::move(rest));
  }
  FLOE_ASSIGN_OR_RETURN(SqlTarget target, SqlTargetFor(uri));
  FLOE_ASSIGN_OR_RETURN_CTX(auto sql, OpenRetrying(target, options.catalog_name),
                            fmt::format("opening catalog {}", RedactCatalogUri(uri)));
  std::vector<std::string> roots = options.allowed_locations;
  if (roots.empty() && !options.warehouse.empty()) {
    roots.push_back(options.warehouse);
  }
  FLOE_ASSIGN_OR_RETURN(LocationPolicy policy, LocationPolicy::Make(roots));
  return std::unique_ptr<Catalog>(std::make_unique<PointerCatalog>(
      std::move(sql), std::make_unique<MetadataFileIo>(target.relative_root, std::move(policy)), options.warehouse));
}

Result<std::unique_ptr<SqlCatalog>> OpenSqlCatalog(const std::string& uri, const std::string& catalog_name) {
  auto target = SqlTargetFor(uri);
  if (!target) {
    return CodedError(ErrorCode::kInvalidCatalogBackend, "{}", target.error().message());
  }
  std::string shown = RedactCatalogUri(uri);
  if (target->serialize_writes) {  // SQLite
    auto opened = OpenRetrying(*target, catalog_name);
    if (!opened) {
      return CodedError(ErrorCode::kCatalogStoreUnreachable, "opening {}: {}", shown, opened.error().message());
    }
    return opened;
  }
  if (auto malformed = CheckPostgresConninfo(uri); !malformed) {
    return CodedError(ErrorCode::kInvalidCatalogBackend, "catalog URI {}: {}", shown, malformed.error().message());
  }
  // One try: a server that is not there will not appear within a retry, and the caller (a
  // person at the console) wants the answer now.
  auto opened = SqlCatalog::Open(target->connect, catalog_name, target->serialize_writes);
  if (!opened) {
    return CodedError(ErrorCode::kCatalogStoreUnreachable, "opening {}: {}", shown, opened.error().message());
  }
  return opened;
}

std::string RedactCatalogUri(std::string_view uri) {
  std::string out(uri);
  // libpq also takes the password as a parameter: ...?password=secret&...
  for (size_t at = out.find("password="); at != std::string::npos; at = out.find("password=", at + 1)) {
    if (at == 0 || (out[at - 1] != '?' && out[at - 1] != '&')) continue;
    size_t end = out.find('&', at);
    out.replace(at + 9, (end == std::string::npos ? out.size() : end) - (at + 9), "****");
  }
  size_t scheme = out.find("://");
  if (scheme == std::string::npos) return out;
  size_t start = scheme + 3;
  size_t at = out.find('@', start);
  size_t slash = out.find('/', start);
  if (at == std::string::npos || (slash != std::string::npos && slash < at)) return out;
  size_t colon = out.find(':', start);
  if (colon == std::string::npos || colon > at) return out;
  return out.substr(0, colon + 1) + "****" + out.substr(at);
}

}  // namespace floe::catalog

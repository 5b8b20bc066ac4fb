#include "catalog/metadata_file_io.h"

#include <filesystem>

namespace floe::catalog {

Result<io::ObjectStore*> MetadataFileIo::StoreFor(const std::string& root) {
  std::lock_guard lock(mu_);
  auto it = stores_.find(root);
  if (it != stores_.end()) {
    return it->second.get();
  }
  FLOE_ASSIGN_OR_RETURN(auto store, io::OpenObjectStore(root));
  io::ObjectStore* raw = store.get();
  stores_.emplace(root, std::move(store));
  return raw;
}

Result<MetadataFileIo::Resolved> MetadataFileIo::ResolveConfined(std::string_view location) {
  FLOE_ASSIGN_OR_RETURN(std::string normal, NormalizeLocation(location));
  std::string root = policy_.RootOf(normal);
  if (root.empty()) {
    return PermissionDenied("location '{}' is outside the catalog's allowed locations", normal);
  }
  std::string key = normal.substr(root.size());
  while (key.starts_with('/')) {
    key.erase(0, 1);
  }
  if (key.empty()) {
    return InvalidArgument("location '{}' is an allowed root itself, not a file or table folder in it", normal);
  }
  FLOE_ASSIGN_OR_RETURN(io::ObjectStore * store, StoreFor(root));
  return Resolved{store, std::move(key)};
}

Result<MetadataFileIo::Resolved> MetadataFileIo::Resolve(std::string_view location) {
  bool relative = location.find("://") == std::string_view::npos && !location.starts_with("/") &&
                  !location.starts_with("file:/");
  if (policy_.confined() && !relative) {
    return ResolveConfined(location);
  }
  std::string_view path;
  if (auto local = LocalPathOf(location)) {
    path = *local;
  } else if (location.starts_with("s3://") || location.starts_with("s3a://")) {
    size_t scheme = location.find("://") + 3;
    size_t slash = location.find('/', scheme);
    if (slash == std::string_view::npos || slash + 1 >= location.size()) {
      return InvalidArgument("location '{}' names no object", location);
    }
    FLOE_ASSIGN_OR_RETURN(io::ObjectStore * store, StoreFor(std::string(location.substr(0, slash))));
    return Resolved{store, std::string(location.substr(slash + 1))};
  } else if (location.find("://") != std::string_view::npos) {
    return InvalidArgument("location '{}': only file:// and s3:// are supported", location);
  } else {
    // Relative: the writer's working folder is unknown, so find the longest suffix of the path
    // that exists under relative_root (then under the current folder).
    std::filesystem::path relative(location);
    std::vector<std::filesystem::path> parts(relative.begin(), relative.end());
    for (const std::string& base : {relative_root_, std::filesystem::current_path().string()}) {
      if (base.empty()) {
        continue;
      }
      for (size_t skip = 0; skip < parts.size(); ++skip) {
        std::filesystem::path candidate(base);
        for (size_t i = skip; i < parts.size(); ++i) {
          candidate /= parts[i];
        }
        std::error_code ignored;
        if (std::filesystem::exists(candidate, ignored)) {
          if (policy_.confined()) {
            return ResolveConfined("file://" + candidate.lexically_normal().string());
          }
          FLOE_ASSIGN_OR_RETURN(io::ObjectStore * store, StoreFor("/"));
          return Resolved{store, candidate.lexically_normal().string().substr(1)};
        }
      }
    }
    return NotFound("relative location '{}' found under neither {} nor the current folder", location,
                    relative_root_.empty() ? "(no catalog folder)" : relative_root_);
  }
  while (path.starts_with("//")) {
    path.remove_prefix(1);
  }
  FLOE_ASSIGN_OR_RETURN(io::ObjectStore * store, StoreFor("/"));
  return Resolved{store, std::string(path.substr(1))};
}

Result<std::string> MetadataFileIo::Read(std::string_view location) {
  FLOE_ASSIGN_OR_RETURN(Resolved resolved, Resolve(location));
  return resolved.store->Get(resolved.key);
}

Status MetadataFileIo::Write(std::string_view location, std::string_view bytes) {
  FLOE_ASSIGN_OR_RETURN(Resolved resolved, Resolve(location));
  return resolved.store->Put(resolved.key, bytes);
}

Status MetadataFileIo::Delete(std::string_view location) {
  FLOE_ASSIGN_OR_RETURN(Resolved resolved, Resolve(location));
  return resolved.store->Delete(resolved.key);
}

Status MetadataFileIo::DeleteFolder(std::string_view location) {
  std::string folder(location);
  while (folder.ends_with('/')) {
    folder.pop_back();
  }
  FLOE_ASSIGN_OR_RETURN(Resolved resolved, Resolve(folder));
  std::string prefix = resolved.key + "/";
  std::optional<std::string> token;
  do {
    FLOE_ASSIGN_OR_RETURN(io::ListResult page, resolved.store->List(prefix, "", token));
    std::vector<std::string> keys;
    for (const io::ObjectInfo& object : page.objects) {
      keys.push_back(object.key);
    }
    if (!keys.empty()) {
      FLOE_RETURN_IF_ERROR(resolved.store->DeleteMany(keys));
    }
    token = page.next_token;
  } while (token);
  return OkStatus();
}

}  // namespace floe::catalog

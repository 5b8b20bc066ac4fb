#include "catalog/location_policy.h"

#include <fmt/format.h>
#include <fmt/ranges.h>

namespace floe::catalog {
namespace {

// Splits `path` on '/', dropping empty segments; refuses "." and ".." and control characters.
Result<std::string> NormalizePath(std::string_view location, std::string_view path) {
  std::string normal;
  size_t start = 0;
  while (start <= path.size()) {
    size_t end = path.find('/', start);
    if (end == std::string_view::npos) end = path.size();
    std::string_view segment = path.substr(start, end - start);
    if (segment == "." || segment == "..") {
      return InvalidArgument("location '{}' has a '{}' segment", location, segment);
    }
    if (!segment.empty()) {
      normal += '/';
      normal += segment;
    }
    start = end + 1;
  }
  return normal;
}

}  // namespace

std::optional<std::string_view> LocalPathOf(std::string_view location) {
  if (location.starts_with("file://")) return location.substr(7);
  if (location.starts_with("file:/")) return location.substr(5);
  if (location.starts_with("/")) return location;
  return std::nullopt;
}

Result<std::string> NormalizeLocation(std::string_view location) {
  for (unsigned char c : location) {
    if (c < 0x20 || c == 0x7f) {
      return InvalidArgument("location contains a control character");
    }
  }
  if (location.starts_with("s3://") || location.starts_with("s3a://")) {
    std::string_view rest = location.substr(location.find("://") + 3);
    size_t slash = rest.find('/');
    std::string_view bucket = rest.substr(0, slash);
    if (bucket.empty()) {
      return InvalidArgument("location '{}' names no bucket", location);
    }
    std::string_view key = slash == std::string_view::npos ? std::string_view() : rest.substr(slash);
    FLOE_ASSIGN_OR_RETURN(std::string path, NormalizePath(location, key));
    return fmt::format("s3://{}{}", bucket, path);
  }
  std::string_view path;
  if (auto local = LocalPathOf(location)) {
    path = *local;
  } else if (location.find("://") != std::string_view::npos) {
    return InvalidArgument("location '{}': only file:// and s3:// locations are supported", location);
  } else {
    return InvalidArgument("location '{}' is not absolute (file:///abs/path or s3://bucket/prefix)", location);
  }
  if (!path.starts_with('/')) {
    // file://host/path: a remote host is not something floe can write to.
    return InvalidArgument("location '{}': a file location needs an absolute path (file:///abs/path)", location);
  }
  FLOE_ASSIGN_OR_RETURN(std::string normal, NormalizePath(location, path));
  return "file://" + (normal.empty() ? std::string("/") : normal);
}

bool LocationWithin(std::string_view outer, std::string_view inner) {
  if (!inner.starts_with(outer)) return false;
  if (inner.size() == outer.size()) return true;
  // file:/// (the filesystem root) ends in '/', every other normal form does not.
  return outer.ends_with('/') || inner[outer.size()] == '/';
}

Result<LocationPolicy> LocationPolicy::Make(const std::vector<std::string>& roots) {
  LocationPolicy policy;
  for (const std::string& root : roots) {
    FLOE_ASSIGN_OR_RETURN_CTX(std::string normal, NormalizeLocation(root), "allowed location");
    policy.roots_.push_back(std::move(normal));
  }
  return policy;
}

Result<std::string> LocationPolicy::CheckTableLocation(std::string_view location) const {
  FLOE_ASSIGN_OR_RETURN(std::string normal, NormalizeLocation(location));
  if (!confined()) {
    return normal;
  }
  for (const std::string& root : roots_) {
    if (LocationWithin(root, normal) && normal != root) {
      return normal;
    }
  }
  return PermissionDenied("location '{}' is outside the catalog's allowed locations ({})", normal,
                          fmt::join(roots_, ", "));
}

std::string LocationPolicy::RootOf(std::string_view normalized) const {
  for (const std::string& root : roots_) {
    if (LocationWithin(root, normalized)) return root;
  }
  return "";
}

}  // namespace floe::catalog

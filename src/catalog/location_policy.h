// LocationPolicy: where a catalog lets its tables live. A table's location decides what a purge
// deletes and where commits write, so a location a client may choose freely lets any catalog
// user delete or overwrite any folder the catalog process can reach (issue #27, finding 1).
// Every location a client names (create, set-location, register) and every folder a purge or
// orphan removal deletes must lie strictly under one of the allowed roots: the warehouse by
// default, or the catalog's `--allowed-location`s.
//
// Locations are compared in a normal form: file:/x, file:///x and /x all become file:///x,
// s3a:// becomes s3://, repeated '/' collapse, a trailing '/' goes; "." and ".." segments and
// control characters are refused rather than resolved, so no spelling climbs out of a root.
// Immutable once built; safe to share between threads.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "base/result.h"

namespace floe::catalog {

// The normal form of a file:// or s3:// location (see above); InvalidArgument when malformed.
Result<std::string> NormalizeLocation(std::string_view location);

// The local path of a file:// or file:/ URI or an absolute path, as written (not normalized);
// nothing for other locations.
std::optional<std::string_view> LocalPathOf(std::string_view location);

// Whether normalized `inner` is `outer` or lies inside it (segment-wise, so /w/ab is not in /w/a).
bool LocationWithin(std::string_view outer, std::string_view inner);

// Whether two normalized locations share files: one is the other or lies inside it.
inline bool LocationsOverlap(std::string_view a, std::string_view b) {
  return LocationWithin(a, b) || LocationWithin(b, a);
}

class LocationPolicy {
 public:
  // No roots: nothing is confined (a catalog opened only to read, with neither a warehouse nor
  // allowed locations). Otherwise `roots` are normalized; a malformed one is InvalidArgument.
  static Result<LocationPolicy> Make(const std::vector<std::string>& roots);

  bool confined() const { return !roots_.empty(); }
  const std::vector<std::string>& roots() const { return roots_; }

  // The normalized `location` when it lies strictly under an allowed root (a table may not take
  // a root itself: it would contain every other table). PermissionDenied when outside,
  // InvalidArgument when malformed. An unconfined policy only normalizes.
  Result<std::string> CheckTableLocation(std::string_view location) const;

  // The allowed root holding normalized `location` (which may be the root itself), or empty.
  std::string RootOf(std::string_view normalized) const;

 private:
  std::vector<std::string> roots_;  // Normalized.
};

}  // namespace floe::catalog

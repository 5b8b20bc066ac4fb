// MetadataFileIo: reads and writes files named by absolute location (metadata files, and the
// table folders a purge removes), whichever store holds them: file:///abs/path, /abs/path and
// s3://bucket/key. A catalog may hold locations written relative to somewhere else (PyIceberg's
// corpus catalog says "data/persistent/t/metadata/..."); those are looked up under
// `relative_root` by their longest suffix that exists there. Owns one ObjectStore per store
// root; thread-safe.
//
// With a confining LocationPolicy, every location (after normalization) must lie under one of
// its roots and is served by a store rooted at that root, so no location reaches a file outside
// them: not a metadata file a register names, not a folder a purge removes. Without one (a
// catalog opened only to read), locations resolve against the filesystem root as written.
#pragma once

#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <string_view>

#include "base/result.h"
#include "catalog/location_policy.h"
#include "io/object_store.h"

namespace floe::catalog {

class MetadataFileIo {
 public:
  // `relative_root`: an absolute folder where relative locations are searched; may be empty.
  explicit MetadataFileIo(std::string relative_root = "", LocationPolicy policy = {})
      : relative_root_(std::move(relative_root)), policy_(std::move(policy)) {}

  const LocationPolicy& policy() const { return policy_; }

  Result<std::string> Read(std::string_view location);
  Status Write(std::string_view location, std::string_view bytes);
  Status Delete(std::string_view location);
  // Deletes every object under the folder `location` ("file:///w/db/t" removes ".../t/...").
  Status DeleteFolder(std::string_view location);

 private:
  struct Resolved {
    io::ObjectStore* store;
    std::string key;
  };
  Result<Resolved> Resolve(std::string_view location);
  Result<Resolved> ResolveConfined(std::string_view location);
  Result<io::ObjectStore*> StoreFor(const std::string& root);

  std::string relative_root_;
  LocationPolicy policy_;
  std::mutex mu_;
  std::map<std::string, std::unique_ptr<io::ObjectStore>> stores_;  // By root URI; guarded by mu_.
};

}  // namespace floe::catalog

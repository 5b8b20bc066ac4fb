#include "io/object_store.h"

#include <mutex>

#include "io/local_object_store.h"
#include "io/object_key.h"
#include "io/s3_object_store.h"

namespace floe::io {

std::string NormalizeObjectUri(std::string_view uri) {
  if (uri.starts_with("s3a://")) return fmt::format("s3://{}", uri.substr(6));
  if (uri.starts_with("file://")) return std::string(uri);
  if (uri.starts_with("file:/")) return fmt::format("file://{}", uri.substr(5));
  if (uri.starts_with("/")) return fmt::format("file://{}", uri);
  return std::string(uri);
}

std::optional<std::string> ObjectStore::KeyForUri(std::string_view uri) const {
  std::string root = NormalizeObjectUri(Uri(""));
  std::string normalized = NormalizeObjectUri(uri);
  if (!normalized.starts_with(root)) return std::nullopt;
  std::string key = normalized.substr(root.size());
  if (!ValidateKey(key)) return std::nullopt;
  return key;
}

namespace {

std::mutex wrapper_mutex;
ObjectStoreWrapper& Wrapper() {
  static ObjectStoreWrapper wrapper;  // Guarded by wrapper_mutex.
  return wrapper;
}

std::unique_ptr<ObjectStore> Wrapped(std::unique_ptr<ObjectStore> store) {
  ObjectStoreWrapper wrapper;
  {
    std::lock_guard lock(wrapper_mutex);
    wrapper = Wrapper();
  }
  return wrapper ? wrapper(std::move(store)) : std::move(store);
}

Result<std::unique_ptr<ObjectStore>> OpenUnwrapped(std::string_view uri);

}  // namespace

void SetObjectStoreWrapper(ObjectStoreWrapper wrapper) {
  std::lock_guard lock(wrapper_mutex);
  Wrapper() = std::move(wrapper);
}

Result<std::unique_ptr<ObjectStore>> OpenObjectStore(std::string_view uri) {
  FLOE_ASSIGN_OR_RETURN(auto store, OpenUnwrapped(uri));
  return Wrapped(std::move(store));
}

namespace {

Result<std::unique_ptr<ObjectStore>> OpenUnwrapped(std::string_view uri) {
  if (uri.starts_with("s3://") || uri.starts_with("s3a://")) {
    std::string s3_uri = uri.starts_with("s3a://") ? "s3://" + std::string(uri.substr(6)) : std::string(uri);
    FLOE_ASSIGN_OR_RETURN(S3Options options, S3Options::FromUri(s3_uri));
    FLOE_ASSIGN_OR_RETURN(auto store, S3ObjectStore::Open(std::move(options)));
    return std::unique_ptr<ObjectStore>(std::move(store));
  }
  std::string_view path;
  if (uri.starts_with("file://")) {
    path = uri.substr(7);  // file:///abs/path
  } else if (uri.starts_with("file:/")) {
    path = uri.substr(5);  // file:/abs/path, as Hadoop-based writers spell it
  } else if (uri.starts_with("/")) {
    path = uri;
  } else {
    return InvalidArgument("object store URI '{}': expected file:///abs/path or s3://bucket/prefix", uri);
  }
  if (!path.starts_with("/")) {
    return InvalidArgument("object store URI '{}': a file URI needs an absolute path (file:///abs/path)", uri);
  }
  FLOE_ASSIGN_OR_RETURN(auto store, LocalObjectStore::Open(std::string(path)));
  return std::unique_ptr<ObjectStore>(std::move(store));
}

}  // namespace
}  // namespace floe::io

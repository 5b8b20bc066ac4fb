#include "io/object_store.h"

#include "io/local_object_store.h"

namespace floe::io {

Result<std::unique_ptr<ObjectStore>> OpenObjectStore(std::string_view uri) {
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

}  // namespace floe::io

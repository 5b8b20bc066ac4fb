// ObjectStore: every byte floe reads or writes for tables goes through this interface.
//
// Implementations: a local folder for file:// URIs, S3 (and anything speaking its API) for
// s3:// URIs, and wrappers (fault injection for tests, a byte-bounded cache for immutable
// objects). Keys are paths relative to the store's root ("db/t/metadata/v1.metadata.json"),
// never absolute, never containing "..": implementations refuse traversal. Implementations are
// thread-safe: one store is shared by every thread of a process.
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "base/result.h"

namespace floe::io {

struct ObjectInfo {
  std::string key;
  uint64_t size = 0;
  int64_t last_modified_millis = 0;  // Wall-clock time of the last write.
  std::string etag;                  // Empty when the store has none.
};

struct ListResult {
  std::vector<ObjectInfo> objects;
  std::vector<std::string> common_prefixes;  // With a delimiter: "folders" directly under the prefix.
  std::optional<std::string> next_token;     // Present when more results remain.
};

// A readable object of known size, read by byte ranges (a Parquet footer, then column chunks).
class InputFile {
 public:
  virtual ~InputFile() = default;
  virtual uint64_t Size() const = 0;
  // Reads exactly `length` bytes at `offset`; reading past the end is an error.
  virtual Result<std::string> ReadAt(uint64_t offset, uint64_t length) const = 0;
  // Where the bytes come from, for error messages: "s3://bucket/key" or "/abs/path".
  virtual const std::string& location() const = 0;
};

// A streamed write. Nothing is visible until Close succeeds; Abort (or destruction without
// Close) leaves no object behind.
class OutputStream {
 public:
  virtual ~OutputStream() = default;
  virtual Status Append(std::string_view bytes) = 0;
  virtual Status Close() = 0;
  virtual void Abort() = 0;
  virtual uint64_t BytesWritten() const = 0;
};

class ObjectStore {
 public:
  virtual ~ObjectStore() = default;

  virtual Result<std::string> Get(std::string_view key) = 0;
  virtual Result<std::string> GetRange(std::string_view key, uint64_t offset, uint64_t length) = 0;
  virtual Result<ObjectInfo> Head(std::string_view key) = 0;
  virtual Result<std::unique_ptr<InputFile>> OpenInput(std::string_view key) = 0;

  // Writes the whole object atomically: readers see the old object or the new one.
  virtual Status Put(std::string_view key, std::string_view bytes) = 0;
  // Writes only if no object exists at `key`; AlreadyExists otherwise. NotImplemented where the
  // store cannot do this atomically.
  virtual Status PutIfAbsent(std::string_view key, std::string_view bytes) = 0;
  virtual Result<std::unique_ptr<OutputStream>> OpenOutput(std::string_view key) = 0;

  // Deleting a missing key succeeds (as on S3).
  virtual Status Delete(std::string_view key) = 0;
  virtual Status DeleteMany(const std::vector<std::string>& keys) = 0;

  // Keys starting with `prefix`, in lexicographic order; with a non-empty delimiter, keys past
  // the next delimiter after the prefix are rolled up into common_prefixes.
  virtual Result<ListResult> List(std::string_view prefix, std::string_view delimiter,
                                  std::optional<std::string> continuation_token, int max_keys = 1000) = 0;

  // Writes not yet published under `prefix`: the local store's temporary files, which a process
  // killed mid-write leaves behind and List never shows (an unfinished S3 upload leaves no
  // object, so S3 has none here). An entry may also be a write still in progress: maintenance
  // takes only those older than its cut-off, as it does for orphan files.
  virtual Result<std::vector<ObjectInfo>> ListUnfinishedWrites(std::string_view prefix) {
    (void)prefix;
    return std::vector<ObjectInfo>{};
  }
  // Deletes entries ListUnfinishedWrites returned; deleting a missing one succeeds.
  virtual Status DeleteUnfinishedWrites(const std::vector<std::string>& keys) {
    return keys.empty() ? OkStatus() : InvalidArgument("this store has no unfinished writes to delete");
  }

  // The URI of `key`: "file:///abs/root/key" or "s3://bucket/prefix/key".
  virtual std::string Uri(std::string_view key) const = 0;

  // The inverse of Uri: the key of an absolute URI under this store's root, or nullopt when the
  // URI is elsewhere. Iceberg metadata stores absolute locations, and other writers spell the
  // same place differently, so "file:/abs", "/abs" and "s3a://" are accepted too.
  virtual std::optional<std::string> KeyForUri(std::string_view uri) const;
};

// The canonical spelling of an object URI: "file:/x" and "/x" become "file:///x", "s3a://"
// becomes "s3://". Other URIs are returned unchanged.
std::string NormalizeObjectUri(std::string_view uri);

// Opens the store for a warehouse or object URI: file:///abs/path or s3://bucket/prefix. The
// store's root is the URI; keys are relative to it.
Result<std::unique_ptr<ObjectStore>> OpenObjectStore(std::string_view uri);

// Wraps every store OpenObjectStore opens from then on; an empty function removes the wrapper.
// `floe up` sets one before its roles start, so the console's playground can inject storage
// faults into every store the process uses. Thread-safe.
using ObjectStoreWrapper = std::function<std::unique_ptr<ObjectStore>(std::unique_ptr<ObjectStore>)>;
void SetObjectStoreWrapper(ObjectStoreWrapper wrapper);

}  // namespace floe::io

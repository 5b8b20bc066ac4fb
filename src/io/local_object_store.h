// LocalObjectStore: the ObjectStore for file:// URIs, a folder whose files are the objects.
//
// Writes are atomic and durable: bytes go to a temporary file in the target folder, which is
// fsync'd, renamed (Put) or hard-linked (PutIfAbsent, so an existing object is never replaced)
// onto the key, and then the folder is fsync'd. Readers therefore see the old object or the new
// one, never a torn file. Listing walks the folder tree and returns keys in byte order, like S3;
// folders left empty by deletes are invisible to listing. Thread-safe: every call works on its
// own file descriptors; owned by whoever opened it (usually through OpenObjectStore).
#pragma once

#include <memory>
#include <string>

#include "io/object_store.h"

namespace floe::io {

class LocalObjectStore final : public ObjectStore {
 public:
  // `root` is an absolute folder path; it is created when missing.
  static Result<std::unique_ptr<LocalObjectStore>> Open(std::string root);

  Result<std::string> Get(std::string_view key) override;
  Result<std::string> GetRange(std::string_view key, uint64_t offset, uint64_t length) override;
  Result<ObjectInfo> Head(std::string_view key) override;
  Result<std::unique_ptr<InputFile>> OpenInput(std::string_view key) override;

  Status Put(std::string_view key, std::string_view bytes) override;
  Status PutIfAbsent(std::string_view key, std::string_view bytes) override;
  Result<std::unique_ptr<OutputStream>> OpenOutput(std::string_view key) override;

  Status Delete(std::string_view key) override;
  Status DeleteMany(const std::vector<std::string>& keys) override;

  Result<std::vector<ObjectInfo>> ListUnfinishedWrites(std::string_view prefix) override;
  Status DeleteUnfinishedWrites(const std::vector<std::string>& keys) override;
  Result<ListResult> List(std::string_view prefix, std::string_view delimiter,
                          std::optional<std::string> continuation_token, int max_keys = 1000) override;

  std::string Uri(std::string_view key) const override;

  const std::string& root() const { return root_; }

 private:
  explicit LocalObjectStore(std::string root) : root_(std::move(root)) {}

  std::string PathOf(std::string_view key) const;

  std::string root_;  // Absolute, without a trailing '/'.
};

}  // namespace floe::io

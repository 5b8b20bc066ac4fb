// MappedFile: a regular file mapped read-only into memory, for inputs read once from start to
// end (`floe parquet write`'s JSON lines): the bytes are used where the page cache holds them,
// without copying them through read(2).
#pragma once

#include <cstddef>
#include <string>
#include <string_view>

#include "base/result.h"

namespace floe {

class MappedFile {
 public:
  // Maps `path`. Fails for what cannot be mapped (pipes, terminals, directories), so callers
  // can fall back to reading; an empty file maps to an empty view.
  static Result<MappedFile> Open(const std::string& path);

  MappedFile(MappedFile&& other) noexcept;
  MappedFile& operator=(MappedFile&& other) noexcept;
  MappedFile(const MappedFile&) = delete;
  MappedFile& operator=(const MappedFile&) = delete;
  ~MappedFile();

  std::string_view bytes() const { return {data_, size_}; }
  // Unmaps the whole pages before byte `offset` from this process (the page cache keeps them):
  // a file read once need not count in the reader's resident memory.
  void ReleaseBefore(size_t offset);

 private:
  MappedFile(const char* data, size_t size) : data_(data), size_(size) {}
  const char* data_ = nullptr;
  size_t size_ = 0;
};

}  // namespace floe

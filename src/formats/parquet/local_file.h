// Files for the Parquet codec outside an ObjectStore: a local file read by ranges (pread), a
// local file written through a temporary name and renamed on Close, and in-memory versions of
// both for tests and buffers. Stand-ins until src/io's local store lands on main.
// LocalInputFile and MemoryInputFile are thread-safe (reads only); the output streams are used
// by one thread.
#pragma once

#include <memory>
#include <string>
#include <string_view>

#include "base/result.h"
#include "io/object_store.h"

namespace floe::parquet {

class LocalInputFile final : public io::InputFile {
 public:
  static Result<std::unique_ptr<io::InputFile>> Open(const std::string& path);
  ~LocalInputFile() override;
  uint64_t Size() const override { return size_; }
  Result<std::string> ReadAt(uint64_t offset, uint64_t length) const override;
  const std::string& location() const override { return path_; }

 private:
  LocalInputFile(std::string path, int fd, uint64_t size) : path_(std::move(path)), fd_(fd), size_(size) {}
  std::string path_;
  int fd_;
  uint64_t size_;
};

class MemoryInputFile final : public io::InputFile {
 public:
  MemoryInputFile(std::string bytes, std::string location = "memory")
      : bytes_(std::move(bytes)), location_(std::move(location)) {}
  uint64_t Size() const override { return bytes_.size(); }
  Result<std::string> ReadAt(uint64_t offset, uint64_t length) const override;
  const std::string& location() const override { return location_; }

 private:
  std::string bytes_;
  std::string location_;
};

class LocalOutputStream final : public io::OutputStream {
 public:
  static Result<std::unique_ptr<io::OutputStream>> Open(const std::string& path);
  ~LocalOutputStream() override;
  Status Append(std::string_view bytes) override;
  Status Close() override;
  void Abort() override;
  uint64_t BytesWritten() const override { return written_; }

 private:
  LocalOutputStream(std::string path, std::string temp, int fd) : path_(std::move(path)), temp_(std::move(temp)), fd_(fd) {}
  Status WriteAll(std::string_view bytes);
  Status FlushBuffer();
  std::string path_, temp_;
  int fd_;
  uint64_t written_ = 0;
  std::string buffer_;
};

// Appends to a caller-owned string; Close does nothing more.
class MemoryOutputStream final : public io::OutputStream {
 public:
  explicit MemoryOutputStream(std::string* sink) : sink_(sink) {}
  Status Append(std::string_view bytes) override {
    sink_->append(bytes);
    return OkStatus();
  }
  Status Close() override { return OkStatus(); }
  void Abort() override { sink_->clear(); }
  uint64_t BytesWritten() const override { return sink_->size(); }

 private:
  std::string* sink_;
};

}  // namespace floe::parquet

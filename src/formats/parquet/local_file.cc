#include "formats/parquet/local_file.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>

#include "base/regular_file.h"

namespace floe::parquet {

Result<std::unique_ptr<io::InputFile>> LocalInputFile::Open(const std::string& path) {
  FLOE_ASSIGN_OR_RETURN(OpenedFile file, OpenRegularFile(path));
  return std::unique_ptr<io::InputFile>(new LocalInputFile(path, file.fd, file.size));
}

LocalInputFile::~LocalInputFile() { ::close(fd_); }

Result<std::string> LocalInputFile::ReadAt(uint64_t offset, uint64_t length) const {
  if (offset > size_ || length > size_ - offset) {
    return Corruption("{}: read of {} bytes at {} past the end ({} bytes)", path_, length, offset, size_);
  }
  std::string out(length, '\0');
  uint64_t done = 0;
  while (done < length) {
    ssize_t n = ::pread(fd_, out.data() + done, length - done, static_cast<off_t>(offset + done));
    if (n < 0) {
      if (errno == EINTR) continue;
      return ErrnoError(errno, "read", path_);
    }
    if (n == 0) return IoError("{}: file shrank while reading", path_);
    done += static_cast<uint64_t>(n);
  }
  return out;
}

Result<std::string> MemoryInputFile::ReadAt(uint64_t offset, uint64_t length) const {
  if (offset > bytes_.size() || length > bytes_.size() - offset) {
    return Corruption("{}: read of {} bytes at {} past the end ({} bytes)", location_, length, offset, bytes_.size());
  }
  return bytes_.substr(offset, length);
}

Result<std::unique_ptr<io::OutputStream>> LocalOutputStream::Open(const std::string& path) {
  std::string temp = path + ".tmp-" + std::to_string(::getpid());
  int fd = ::open(temp.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
  if (fd < 0) return ErrnoError(errno, "create", temp);
  return std::unique_ptr<io::OutputStream>(new LocalOutputStream(path, temp, fd));
}

LocalOutputStream::~LocalOutputStream() { Abort(); }

Status LocalOutputStream::WriteAll(std::string_view bytes) {
  size_t done = 0;
  while (done < bytes.size()) {
    ssize_t n = ::write(fd_, bytes.data() + done, bytes.size() - done);
    if (n < 0) {
      if (errno == EINTR) continue;
      return ErrnoError(errno, "write", temp_);
    }
    done += static_cast<size_t>(n);
  }
  return OkStatus();
}

Status LocalOutputStream::FlushBuffer() {
  FLOE_RETURN_IF_ERROR(WriteAll(buffer_));
  buffer_.clear();
  return OkStatus();
}

Status LocalOutputStream::Append(std::string_view bytes) {
  if (fd_ < 0) return Internal("append to a closed stream");
  written_ += bytes.size();
  if (buffer_.size() + bytes.size() > (1 << 20)) {
    FLOE_RETURN_IF_ERROR(FlushBuffer());
    if (bytes.size() > (1 << 20)) return WriteAll(bytes);  // Large pieces skip the buffer.
  }
  buffer_.append(bytes);
  return OkStatus();
}

Status LocalOutputStream::Close() {
  if (fd_ < 0) return Internal("close of a closed stream");
  FLOE_RETURN_IF_ERROR(FlushBuffer());
  if (::close(fd_) != 0) {
    fd_ = -1;
    return ErrnoError(errno, "close", temp_);
  }
  fd_ = -1;
  if (::rename(temp_.c_str(), path_.c_str()) != 0) return ErrnoError(errno, "rename", path_);
  temp_.clear();
  return OkStatus();
}

void LocalOutputStream::Abort() {
  if (fd_ >= 0) {
    ::close(fd_);
    fd_ = -1;
  }
  if (!temp_.empty()) {
    ::unlink(temp_.c_str());
    temp_.clear();
  }
}

}  // namespace floe::parquet

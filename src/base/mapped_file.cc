#include "base/mapped_file.h"

#include <sys/mman.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <utility>

#include "base/regular_file.h"

namespace floe {

Result<MappedFile> MappedFile::Open(const std::string& path) {
  FLOE_ASSIGN_OR_RETURN(OpenedFile file, OpenRegularFile(path));
  const int fd = file.fd;
  if (file.size == 0) {
    ::close(fd);
    return MappedFile(nullptr, 0);
  }
  const auto size = static_cast<size_t>(file.size);
  void* data = ::mmap(nullptr, size, PROT_READ, MAP_PRIVATE, fd, 0);
  int e = errno;
  ::close(fd);  // The mapping keeps the file open.
  if (data == MAP_FAILED) return ErrnoError(e, "mmap", path);
  ::madvise(data, size, MADV_SEQUENTIAL);
  return MappedFile(static_cast<const char*>(data), size);
}

void MappedFile::ReleaseBefore(size_t offset) {
  const auto page = static_cast<size_t>(::sysconf(_SC_PAGESIZE));
  const size_t bytes = std::min(offset, size_) / page * page;
  if (bytes > 0) ::madvise(const_cast<char*>(data_), bytes, MADV_DONTNEED);
}

MappedFile::MappedFile(MappedFile&& other) noexcept
    : data_(std::exchange(other.data_, nullptr)), size_(std::exchange(other.size_, 0)) {}

MappedFile& MappedFile::operator=(MappedFile&& other) noexcept {
  if (this != &other) {
    if (data_ != nullptr) ::munmap(const_cast<char*>(data_), size_);
    data_ = std::exchange(other.data_, nullptr);
    size_ = std::exchange(other.size_, 0);
  }
  return *this;
}

MappedFile::~MappedFile() {
  if (data_ != nullptr) ::munmap(const_cast<char*>(data_), size_);
}

}  // namespace floe

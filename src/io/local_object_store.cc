#include "io/local_object_store.h"

#include <dirent.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cerrno>
#include <random>

#include "io/object_key.h"

namespace floe::io {
namespace {

// Owns one file descriptor.
class Fd {
 public:
  Fd() = default;
  explicit Fd(int fd) : fd_(fd) {}
  Fd(Fd&& other) noexcept : fd_(std::exchange(other.fd_, -1)) {}
  Fd& operator=(Fd&& other) noexcept {
    if (this != &other) {
      Reset();
      fd_ = std::exchange(other.fd_, -1);
    }
    return *this;
  }
  ~Fd() { Reset(); }
  int get() const { return fd_; }
  bool valid() const { return fd_ >= 0; }
  void Reset() {
    if (fd_ >= 0) ::close(fd_);
    fd_ = -1;
  }

 private:
  int fd_ = -1;
};

Status WriteAll(int fd, std::string_view bytes, const std::string& path) {
  while (!bytes.empty()) {
    ssize_t n = ::write(fd, bytes.data(), bytes.size());
    if (n < 0) {
      if (errno == EINTR) continue;
      return ErrnoError(errno, "write", path);
    }
    bytes.remove_prefix(static_cast<size_t>(n));
  }
  return OkStatus();
}

Status PreadAll(int fd, char* out, uint64_t offset, uint64_t length, const std::string& path) {
  while (length > 0) {
    ssize_t n = ::pread(fd, out, length, static_cast<off_t>(offset));
    if (n < 0) {
      if (errno == EINTR) continue;
      return ErrnoError(errno, "read", path);
    }
    if (n == 0) return Corruption("read {}: file shrank while reading at offset {}", path, offset);
    out += n;
    offset += static_cast<uint64_t>(n);
    length -= static_cast<uint64_t>(n);
  }
  return OkStatus();
}

Status SyncFolder(const std::string& folder) {
  Fd fd(::open(folder.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC));
  if (!fd.valid()) return ErrnoError(errno, "open folder", folder);
  if (::fsync(fd.get()) != 0) return ErrnoError(errno, "fsync folder", folder);
  return OkStatus();
}

std::string ParentOf(const std::string& path) { return path.substr(0, path.rfind('/')); }

// Creates the folders between `root` and the file `path`, fsyncing each parent that gained an
// entry so a crash cannot lose a folder holding a durable object.
Status MakeParents(const std::string& root, const std::string& path) {
  size_t pos = root.size() + 1;
  while (true) {
    size_t slash = path.find('/', pos);
    if (slash == std::string::npos) return OkStatus();
    std::string folder = path.substr(0, slash);
    if (::mkdir(folder.c_str(), 0755) == 0) {
      FLOE_RETURN_IF_ERROR(SyncFolder(ParentOf(folder)));
    } else if (errno != EEXIST) {
      return ErrnoError(errno, "mkdir", folder);
    }
    pos = slash + 1;
  }
}

std::string TempPathFor(const std::string& path) {
  static std::atomic<uint64_t> counter{0};
  static const uint64_t seed = std::random_device{}();
  return fmt::format("{}/{}{:x}-{:x}-{}", ParentOf(path), kTempFilePrefix, seed, ::getpid(), counter.fetch_add(1));
}

// Creates a fresh temporary file beside `path` (creating the folders up to it).
Result<std::pair<Fd, std::string>> CreateTemp(const std::string& root, const std::string& path) {
  FLOE_RETURN_IF_ERROR(MakeParents(root, path));
  std::string temp = TempPathFor(path);
  Fd fd(::open(temp.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0644));
  if (!fd.valid()) return ErrnoError(errno, "create", temp);
  return std::make_pair(std::move(fd), std::move(temp));
}

// Makes the temp file durable and moves it onto `path`: rename replaces, link refuses to.
Status Publish(Fd fd, const std::string& temp, const std::string& path, bool replace) {
  if (::fsync(fd.get()) != 0) {
    int err = errno;
    ::unlink(temp.c_str());
    return ErrnoError(err, "fsync", temp);
  }
  fd.Reset();
  if (replace) {
    if (::rename(temp.c_str(), path.c_str()) != 0) {
      int err = errno;
      ::unlink(temp.c_str());
      return ErrnoError(err, "rename onto", path);
    }
  } else {
    int rc = ::link(temp.c_str(), path.c_str());
    int err = errno;
    ::unlink(temp.c_str());
    if (rc != 0) {
      if (err == EEXIST) return AlreadyExists("object {} already exists", path);
      return ErrnoError(err, "link onto", path);
    }
  }
  return SyncFolder(ParentOf(path));
}

Status WriteObject(const std::string& root, const std::string& path, std::string_view bytes, bool replace) {
  FLOE_ASSIGN_OR_RETURN(auto temp, CreateTemp(root, path));
  if (Status st = WriteAll(temp.first.get(), bytes, temp.second); !st) {
    ::unlink(temp.second.c_str());
    return st;
  }
  return Publish(std::move(temp.first), temp.second, path, replace);
}

Result<Fd> OpenForRead(const std::string& path, struct stat* st) {
  Fd fd(::open(path.c_str(), O_RDONLY | O_CLOEXEC));
  if (!fd.valid()) return ErrnoError(errno, "open", path);
  if (::fstat(fd.get(), st) != 0) return ErrnoError(errno, "stat", path);
  if (!S_ISREG(st->st_mode)) return NotFound("open {}: not an object (a folder or special file)", path);
  return fd;
}

Status CheckRange(uint64_t offset, uint64_t length, uint64_t size, const std::string& where) {
  if (offset > size || length > size - offset) {
    return InvalidArgument("read {}: range [{}, {}) is past the end of the object ({} bytes)", where, offset,
                           offset + length, size);
  }
  return OkStatus();
}

class LocalInputFile final : public InputFile {
 public:
  LocalInputFile(Fd fd, uint64_t size, std::string path) : fd_(std::move(fd)), size_(size), path_(std::move(path)) {}
  uint64_t Size() const override { return size_; }
  Result<std::string> ReadAt(uint64_t offset, uint64_t length) const override {
    FLOE_RETURN_IF_ERROR(CheckRange(offset, length, size_, path_));
    std::string out(length, '\0');
    FLOE_RETURN_IF_ERROR(PreadAll(fd_.get(), out.data(), offset, length, path_));
    return out;
  }
  const std::string& location() const override { return path_; }

 private:
  Fd fd_;
  uint64_t size_;
  std::string path_;
};

// Streams into a temporary file that Close publishes; buffers small appends into large writes.
class LocalOutputStream final : public OutputStream {
 public:
  static constexpr size_t kBufferBytes = 1 << 20;

  LocalOutputStream(Fd fd, std::string temp, std::string path)
      : fd_(std::move(fd)), temp_(std::move(temp)), path_(std::move(path)) {}
  ~LocalOutputStream() override { Abort(); }

  Status Append(std::string_view bytes) override {
    if (!fd_.valid()) return InvalidArgument("append to {}: the stream is closed", path_);
    written_ += bytes.size();
    if (buffer_.size() + bytes.size() < kBufferBytes) {
      buffer_.append(bytes);
      return OkStatus();
    }
    Status st = Flush();
    if (st) st = WriteAll(fd_.get(), bytes, temp_);
    if (!st) Abort();
    return st;
  }

  Status Close() override {
    if (!fd_.valid()) return InvalidArgument("close {}: the stream is already closed or aborted", path_);
    if (Status st = Flush(); !st) {
      Abort();
      return st;
    }
    std::string temp = std::move(temp_);
    temp_.clear();
    return Publish(std::move(fd_), temp, path_, /*replace=*/true);
  }

  void Abort() override {
    if (!fd_.valid()) return;
    fd_.Reset();
    ::unlink(temp_.c_str());
    temp_.clear();
    buffer_.clear();
  }

  uint64_t BytesWritten() const override { return written_; }

 private:
  Status Flush() {
    Status st = WriteAll(fd_.get(), buffer_, temp_);
    buffer_.clear();
    return st;
  }

  Fd fd_;
  std::string temp_;
  std::string path_;
  std::string buffer_;
  uint64_t written_ = 0;
};

// Which files Walk returns: published objects, or the temporary files of unfinished writes.
enum class Entries { kObjects, kTemporaries };

// Collects the `wanted` files under `folder` (relative path `rel`, "" or ending in '/') whose
// keys start with `prefix`.
Status Walk(const std::string& folder, const std::string& rel, std::string_view prefix, Entries wanted,
            std::vector<ObjectInfo>* out) {
  DIR* dir = ::opendir(folder.c_str());
  if (dir == nullptr) {
    if (errno == ENOENT || errno == ENOTDIR) return OkStatus();
    return ErrnoError(errno, "list folder", folder);
  }
  std::unique_ptr<DIR, int (*)(DIR*)> closer(dir, ::closedir);
  while (struct dirent* entry = ::readdir(dir)) {
    std::string_view name = entry->d_name;
    if (name == "." || name == "..") continue;
    const bool temporary = name.starts_with(kTempFilePrefix);
    std::string key = rel + std::string(name);
    std::string path = folder + "/" + std::string(name);
    struct stat st;
    if (::lstat(path.c_str(), &st) != 0) {
      if (errno == ENOENT) continue;  // Deleted while listing.
      return ErrnoError(errno, "stat", path);
    }
    if (S_ISDIR(st.st_mode)) {
      std::string sub = key + "/";
      if (sub.starts_with(prefix) || prefix.starts_with(sub)) {
        FLOE_RETURN_IF_ERROR(Walk(path, sub, prefix, wanted, out));
      }
    } else if (S_ISREG(st.st_mode) && key.starts_with(prefix) && temporary == (wanted == Entries::kTemporaries)) {
      out->push_back(ObjectInfo{
          .key = std::move(key),
          .size = static_cast<uint64_t>(st.st_size),
          .last_modified_millis = static_cast<int64_t>(st.st_mtim.tv_sec) * 1000 + st.st_mtim.tv_nsec / 1'000'000,
          .etag = fmt::format("{:x}-{:x}", st.st_size, st.st_mtim.tv_sec * 1'000'000'000LL + st.st_mtim.tv_nsec),
      });
    }
  }
  return OkStatus();
}

// The `wanted` files under `root` whose keys start with `prefix`, in key order (as S3 lists).
Result<std::vector<ObjectInfo>> FilesInKeyOrder(const std::string& root, std::string_view prefix, Entries wanted) {
  std::vector<ObjectInfo> files;
  FLOE_RETURN_IF_ERROR(Walk(root.empty() ? "/" : root, "", prefix, wanted, &files));
  std::sort(files.begin(), files.end(), [](const ObjectInfo& a, const ObjectInfo& b) { return a.key < b.key; });
  return files;
}

}  // namespace

Result<std::unique_ptr<LocalObjectStore>> LocalObjectStore::Open(std::string root) {
  if (root.empty() || root.front() != '/') {
    return InvalidArgument("local store root '{}' must be an absolute path", root);
  }
  while (root.size() > 1 && root.back() == '/') root.pop_back();
  // Create the root and its parents; "root + /x" makes MakeParents treat root as a folder.
  std::string probe = root + "/x";
  size_t pos = 1;
  while (true) {
    size_t slash = probe.find('/', pos);
    if (slash == std::string::npos) break;
    std::string folder = probe.substr(0, slash);
    if (::mkdir(folder.c_str(), 0755) != 0 && errno != EEXIST) return ErrnoError(errno, "mkdir", folder);
    pos = slash + 1;
  }
  struct stat st;
  if (::stat(root.c_str(), &st) != 0) return ErrnoError(errno, "stat", root);
  if (!S_ISDIR(st.st_mode)) return InvalidArgument("local store root {} is not a folder", root);
  if (root == "/") root.clear();
  return std::unique_ptr<LocalObjectStore>(new LocalObjectStore(std::move(root)));
}

std::string LocalObjectStore::PathOf(std::string_view key) const { return fmt::format("{}/{}", root_, key); }

std::string LocalObjectStore::Uri(std::string_view key) const { return fmt::format("file://{}/{}", root_, key); }

Result<std::string> LocalObjectStore::Get(std::string_view key) {
  FLOE_RETURN_IF_ERROR(ValidateKey(key));
  std::string path = PathOf(key);
  struct stat st;
  FLOE_ASSIGN_OR_RETURN(Fd fd, OpenForRead(path, &st));
  std::string out(static_cast<size_t>(st.st_size), '\0');
  FLOE_RETURN_IF_ERROR(PreadAll(fd.get(), out.data(), 0, out.size(), path));
  return out;
}

Result<std::string> LocalObjectStore::GetRange(std::string_view key, uint64_t offset, uint64_t length) {
  FLOE_RETURN_IF_ERROR(ValidateKey(key));
  std::string path = PathOf(key);
  struct stat st;
  FLOE_ASSIGN_OR_RETURN(Fd fd, OpenForRead(path, &st));
  FLOE_RETURN_IF_ERROR(CheckRange(offset, length, static_cast<uint64_t>(st.st_size), path));
  std::string out(length, '\0');
  FLOE_RETURN_IF_ERROR(PreadAll(fd.get(), out.data(), offset, length, path));
  return out;
}

Result<ObjectInfo> LocalObjectStore::Head(std::string_view key) {
  FLOE_RETURN_IF_ERROR(ValidateKey(key));
  std::string path = PathOf(key);
  struct stat st;
  if (::stat(path.c_str(), &st) != 0) return ErrnoError(errno, "stat", path);
  if (!S_ISREG(st.st_mode)) return NotFound("stat {}: not an object (a folder or special file)", path);
  return ObjectInfo{
      .key = std::string(key),
      .size = static_cast<uint64_t>(st.st_size),
      .last_modified_millis = static_cast<int64_t>(st.st_mtim.tv_sec) * 1000 + st.st_mtim.tv_nsec / 1'000'000,
      .etag = fmt::format("{:x}-{:x}", st.st_size, st.st_mtim.tv_sec * 1'000'000'000LL + st.st_mtim.tv_nsec),
  };
}

Result<std::unique_ptr<InputFile>> LocalObjectStore::OpenInput(std::string_view key) {
  FLOE_RETURN_IF_ERROR(ValidateKey(key));
  std::string path = PathOf(key);
  struct stat st;
  FLOE_ASSIGN_OR_RETURN(Fd fd, OpenForRead(path, &st));
  return std::make_unique<LocalInputFile>(std::move(fd), static_cast<uint64_t>(st.st_size), std::move(path));
}

Status LocalObjectStore::Put(std::string_view key, std::string_view bytes) {
  FLOE_RETURN_IF_ERROR(ValidateKey(key));
  return WriteObject(root_, PathOf(key), bytes, /*replace=*/true);
}

Status LocalObjectStore::PutIfAbsent(std::string_view key, std::string_view bytes) {
  FLOE_RETURN_IF_ERROR(ValidateKey(key));
  return WriteObject(root_, PathOf(key), bytes, /*replace=*/false);
}

Result<std::unique_ptr<OutputStream>> LocalObjectStore::OpenOutput(std::string_view key) {
  FLOE_RETURN_IF_ERROR(ValidateKey(key));
  std::string path = PathOf(key);
  FLOE_ASSIGN_OR_RETURN(auto temp, CreateTemp(root_, path));
  return std::make_unique<LocalOutputStream>(std::move(temp.first), std::move(temp.second), std::move(path));
}

Status LocalObjectStore::Delete(std::string_view key) {
  FLOE_RETURN_IF_ERROR(ValidateKey(key));
  std::string path = PathOf(key);
  if (::unlink(path.c_str()) != 0) {
    if (errno == ENOENT) return OkStatus();
    return ErrnoError(errno, "delete", path);
  }
  return SyncFolder(ParentOf(path));
}

Status LocalObjectStore::DeleteMany(const std::vector<std::string>& keys) {
  for (const std::string& key : keys) FLOE_RETURN_IF_ERROR(ValidateKey(key));
  for (const std::string& key : keys) FLOE_RETURN_IF_ERROR(Delete(key));
  return OkStatus();
}

Result<std::vector<ObjectInfo>> LocalObjectStore::ListUnfinishedWrites(std::string_view prefix) {
  FLOE_RETURN_IF_ERROR(ValidatePrefix(prefix));
  return FilesInKeyOrder(root_, prefix, Entries::kTemporaries);
}

Status LocalObjectStore::DeleteUnfinishedWrites(const std::vector<std::string>& keys) {
  for (const std::string& key : keys) {
    // A temporary file's name, in a folder that is a valid key's: nothing else can be deleted.
    const size_t slash = key.rfind('/');
    const std::string_view name = slash == std::string::npos ? std::string_view(key) : std::string_view(key).substr(slash + 1);
    const std::string_view folder = slash == std::string::npos ? std::string_view() : std::string_view(key).substr(0, slash);
    if (!name.starts_with(kTempFilePrefix) || name.size() == kTempFilePrefix.size() ||
        (!folder.empty() && !ValidateKey(folder))) {
      return InvalidArgument("'{}' is not an unfinished write", key);
    }
  }
  for (const std::string& key : keys) {
    const std::string path = PathOf(key);
    if (::unlink(path.c_str()) != 0 && errno != ENOENT) return ErrnoError(errno, "delete", path);
  }
  return OkStatus();
}

Result<ListResult> LocalObjectStore::List(std::string_view prefix, std::string_view delimiter,
                                          std::optional<std::string> continuation_token, int max_keys) {
  FLOE_RETURN_IF_ERROR(ValidatePrefix(prefix));
  if (max_keys <= 0) return InvalidArgument("list {}: max_keys must be positive, got {}", Uri(prefix), max_keys);
  FLOE_ASSIGN_OR_RETURN(std::vector<ObjectInfo> all, FilesInKeyOrder(root_, prefix, Entries::kObjects));

  // Entries are keys or rolled-up prefixes, both in key order; the token is the last entry
  // returned, so a page resumes strictly after it (a rolled-up prefix sorts before its keys).
  ListResult result;
  std::string last_entry;
  for (ObjectInfo& info : all) {
    std::optional<std::string> rolled;
    if (!delimiter.empty()) {
      size_t at = info.key.find(delimiter, prefix.size());
      if (at != std::string::npos) rolled = info.key.substr(0, at + delimiter.size());
    }
    const std::string& entry = rolled ? *rolled : info.key;
    if (continuation_token && entry <= *continuation_token) continue;
    if (rolled && !result.common_prefixes.empty() && result.common_prefixes.back() == *rolled) continue;
    if (static_cast<int>(result.objects.size() + result.common_prefixes.size()) == max_keys) {
      result.next_token = last_entry;
      break;
    }
    last_entry = entry;
    if (rolled) {
      result.common_prefixes.push_back(std::move(*rolled));
    } else {
      result.objects.push_back(std::move(info));
    }
  }
  return result;
}

}  // namespace floe::io

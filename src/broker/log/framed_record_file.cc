#include "broker/log/framed_record_file.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <filesystem>

#include "base/bytes.h"
#include "base/crc32c.h"
#include "base/logging.h"
#include "base/sync_directory.h"

namespace floe::broker {
namespace {

constexpr size_t kFrameHeader = 8;  // u32 length, u32 crc32c of the body

Status WriteFully(int fd, std::string_view bytes, const std::string& path) {
  while (!bytes.empty()) {
    ssize_t n = ::write(fd, bytes.data(), bytes.size());
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) return ErrnoError(errno, "write", path);
    bytes.remove_prefix(static_cast<size_t>(n));
  }
  return OkStatus();
}

void AppendFrame(std::string_view body, std::string* out) {
  ByteWriter w(out);
  w.AppendBig<uint32_t>(static_cast<uint32_t>(body.size()));
  w.AppendBig<uint32_t>(crc32c::Value(body.data(), body.size()));
  w.AppendBytes(body);
}

Result<std::string> ReadWholeFile(int fd, const std::string& path) {
  struct stat st;
  if (::fstat(fd, &st) != 0) return ErrnoError(errno, "stat", path);
  std::string contents(static_cast<size_t>(st.st_size), '\0');
  size_t got = 0;
  while (got < contents.size()) {
    ssize_t n = ::pread(fd, contents.data() + got, contents.size() - got, static_cast<off_t>(got));
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) return ErrnoError(n < 0 ? errno : EIO, "read", path);
    got += static_cast<size_t>(n);
  }
  return contents;
}

}  // namespace

Result<std::unique_ptr<FramedRecordFile>> FramedRecordFile::Open(std::string path, Options options,
                                                                 const ReplayFn& replay) {
  std::unique_ptr<FramedRecordFile> file(new FramedRecordFile(std::move(path), options));
  FLOE_RETURN_IF_ERROR(file->Replay(replay));
  return file;
}

FramedRecordFile::~FramedRecordFile() {
  if (fd_ >= 0) ::close(fd_);
}

Status FramedRecordFile::Replay(const ReplayFn& replay) {
  fd_ = ::open(path_.c_str(), O_CREAT | O_RDWR | O_CLOEXEC, 0644);
  if (fd_ < 0) return ErrnoError(errno, "open", path_);
  FLOE_ASSIGN_OR_RETURN(std::string contents, ReadWholeFile(fd_, path_));
  ByteReader r(contents);
  size_t valid_end = 0;
  std::string why = "a torn frame header";
  while (r.remaining() >= kFrameHeader) {
    uint32_t length = *r.ReadBig<uint32_t>("length");
    uint32_t crc = *r.ReadBig<uint32_t>("crc");
    if (length > options_.max_record_bytes || length > r.remaining()) {
      why = fmt::format("a record of {} bytes with {} left (at most {})", length, r.remaining(),
                        options_.max_record_bytes);
      break;
    }
    std::string_view body = *r.ReadBytes(length, "body");
    if (crc32c::Value(body.data(), body.size()) != crc) {
      why = "a CRC mismatch";
      break;
    }
    if (Status accepted = replay(body); !accepted) {
      why = accepted.error().ToString();
      break;
    }
    ++records_;
    valid_end = r.position();
  }
  if (valid_end < contents.size()) {
    truncated_bytes_ = contents.size() - valid_end;
    Logger("broker")->warn("{}: cut {} bytes after byte {} ({})", path_, truncated_bytes_, valid_end, why);
    if (::ftruncate(fd_, static_cast<off_t>(valid_end)) != 0) return ErrnoError(errno, "truncate", path_);
    if (options_.sync && ::fdatasync(fd_) != 0) return ErrnoError(errno, "fdatasync", path_);
  }
  if (::lseek(fd_, static_cast<off_t>(valid_end), SEEK_SET) < 0) return ErrnoError(errno, "seek", path_);
  return OkStatus();
}

Status FramedRecordFile::Append(std::string_view body) {
  if (body.size() > options_.max_record_bytes) {
    return ResourceExhausted("{}: a record of {} bytes (at most {})", path_, body.size(), options_.max_record_bytes);
  }
  off_t end = ::lseek(fd_, 0, SEEK_CUR);
  if (end < 0) return ErrnoError(errno, "seek", path_);
  std::string frame;
  AppendFrame(body, &frame);
  if (Status written = WriteFully(fd_, frame, path_); !written) {
    // Cut the partial record so the next append does not land after garbage replay stops at.
    if (::ftruncate(fd_, end) != 0 || ::lseek(fd_, end, SEEK_SET) < 0) {
      Logger("broker")->error("{}: cannot cut a partial record at byte {}", path_, end);
    }
    return written;
  }
  if (options_.sync && ::fdatasync(fd_) != 0) return ErrnoError(errno, "fdatasync", path_);
  ++records_;
  return OkStatus();
}

Status FramedRecordFile::Rewrite(const std::vector<std::string>& bodies) {
  std::string bytes;
  for (const std::string& body : bodies) AppendFrame(body, &bytes);
  std::string tmp = path_ + ".tmp";
  int fd = ::open(tmp.c_str(), O_CREAT | O_RDWR | O_TRUNC | O_CLOEXEC, 0644);
  if (fd < 0) return ErrnoError(errno, "create", tmp);
  Status written = WriteFully(fd, bytes, tmp);
  if (written && ::fsync(fd) != 0) written = ErrnoError(errno, "fsync", tmp);
  if (written && ::rename(tmp.c_str(), path_.c_str()) != 0) written = ErrnoError(errno, "rename", tmp);
  if (!written) {
    ::close(fd);
    return written;
  }
  ::close(fd_);
  fd_ = fd;
  if (::lseek(fd_, 0, SEEK_END) < 0) return ErrnoError(errno, "seek", path_);
  records_ = bodies.size();
  return SyncDirectory(std::filesystem::path(path_).parent_path().string());
}

}  // namespace floe::broker

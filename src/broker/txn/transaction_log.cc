#include "broker/txn/transaction_log.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <filesystem>

#include "base/bytes.h"
#include "base/crc32c.h"
#include "base/logging.h"

namespace floe::broker {
namespace {

constexpr size_t kFrameHeader = 8;  // u32 length, u32 crc32c of the body
constexpr uint32_t kMaxRecord = 16 << 20;

Status WriteFully(int fd, std::string_view bytes, const std::string& path) {
  while (!bytes.empty()) {
    ssize_t n = ::write(fd, bytes.data(), bytes.size());
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) return ErrnoError(errno, "write", path);
    bytes.remove_prefix(static_cast<size_t>(n));
  }
  return OkStatus();
}

std::string Frame(std::string_view body) {
  std::string out;
  ByteWriter w(&out);
  w.AppendBig<uint32_t>(static_cast<uint32_t>(body.size()));
  w.AppendBig<uint32_t>(crc32c::Value(body.data(), body.size()));
  w.AppendBytes(body);
  return out;
}

Status SyncDirectory(const std::string& dir) {
  int fd = ::open(dir.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  if (fd < 0) return ErrnoError(errno, "open", dir);
  int rc = ::fsync(fd);
  int err = errno;
  ::close(fd);
  if (rc != 0) return ErrnoError(err, "fsync", dir);
  return OkStatus();
}

}  // namespace

Result<std::unique_ptr<TransactionLog>> TransactionLog::Open(const std::string& data_dir, bool sync, States* replayed) {
  std::string dir = data_dir + "/transactions";
  std::error_code ec;
  std::filesystem::create_directories(dir, ec);
  if (ec) return IoError("create {}: {}", dir, ec.message());
  std::unique_ptr<TransactionLog> log(new TransactionLog(dir + "/transactions.log", sync));
  FLOE_RETURN_IF_ERROR(log->Replay(replayed));
  return log;
}

TransactionLog::~TransactionLog() {
  if (fd_ >= 0) ::close(fd_);
}

Status TransactionLog::Replay(States* states) {
  fd_ = ::open(path_.c_str(), O_CREAT | O_RDWR | O_CLOEXEC, 0644);
  if (fd_ < 0) return ErrnoError(errno, "open", path_);
  struct stat st;
  if (::fstat(fd_, &st) != 0) return ErrnoError(errno, "stat", path_);
  std::string contents(static_cast<size_t>(st.st_size), '\0');
  size_t got = 0;
  while (got < contents.size()) {
    ssize_t n = ::pread(fd_, contents.data() + got, contents.size() - got, static_cast<off_t>(got));
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) return ErrnoError(n < 0 ? errno : EIO, "read", path_);
    got += static_cast<size_t>(n);
  }
  ByteReader r(contents);
  size_t valid_end = 0;
  std::string why;
  while (r.remaining() >= kFrameHeader) {
    uint32_t length = *r.ReadBig<uint32_t>("length");
    uint32_t crc = *r.ReadBig<uint32_t>("crc");
    if (length > kMaxRecord || length > r.remaining()) {
      why = fmt::format("record of {} bytes with {} left", length, r.remaining());
      break;
    }
    std::string_view body = *r.ReadBytes(length, "body");
    if (crc32c::Value(body.data(), body.size()) != crc) {
      why = "CRC mismatch";
      break;
    }
    auto record = DecodeTransactionRecord(body);
    if (!record) {
      why = record.error().ToString();
      break;
    }
    std::string id = record->transactional_id;
    if (record->state == TxnState::kDead) {
      states->erase(id);
    } else {
      (*states)[id] = std::move(*record);
    }
    ++records_in_file_;
    valid_end = r.position();
  }
  if (valid_end < contents.size()) {
    truncated_bytes_ = contents.size() - valid_end;
    Logger("broker")->warn("{}: cut {} bytes after byte {} ({})", path_, truncated_bytes_, valid_end,
                           why.empty() ? "a torn frame header" : why);
    if (::ftruncate(fd_, static_cast<off_t>(valid_end)) != 0) return ErrnoError(errno, "truncate", path_);
    if (sync_ && ::fdatasync(fd_) != 0) return ErrnoError(errno, "fdatasync", path_);
  }
  if (::lseek(fd_, static_cast<off_t>(valid_end), SEEK_SET) < 0) return ErrnoError(errno, "seek", path_);
  if (records_in_file_ > 1000 && records_in_file_ > 4 * states->size()) return Compact(*states);
  return OkStatus();
}

Status TransactionLog::Compact(const States& live) {
  std::string bytes;
  for (const auto& [id, txn] : live) bytes += Frame(EncodeTransactionRecord(txn));
  std::string tmp = path_ + ".tmp";
  int fd = ::open(tmp.c_str(), O_CREAT | O_RDWR | O_TRUNC | O_CLOEXEC, 0644);
  if (fd < 0) return ErrnoError(errno, "create", tmp);
  Status written = WriteFully(fd, bytes, tmp);
  if (written && ::fsync(fd) != 0) written = ErrnoError(errno, "fsync", tmp);
  if (!written) {
    ::close(fd);
    return written;
  }
  if (::rename(tmp.c_str(), path_.c_str()) != 0) {
    int err = errno;
    ::close(fd);
    return ErrnoError(err, "rename", tmp);
  }
  ::close(fd_);
  fd_ = fd;
  if (::lseek(fd_, 0, SEEK_END) < 0) return ErrnoError(errno, "seek", path_);
  records_in_file_ = live.size();
  return SyncDirectory(std::filesystem::path(path_).parent_path().string());
}

Status TransactionLog::Append(const TransactionMetadata& txn, const States& live) {
  std::string body = EncodeTransactionRecord(txn);
  if (body.size() > kMaxRecord) return ResourceExhausted("transaction '{}' record of {} bytes", txn.transactional_id, body.size());
  off_t end = ::lseek(fd_, 0, SEEK_CUR);
  if (end < 0) return ErrnoError(errno, "seek", path_);
  if (Status written = WriteFully(fd_, Frame(body), path_); !written) {
    // Cut a partial record so the next append does not land after garbage replay stops at.
    if (::ftruncate(fd_, end) != 0 || ::lseek(fd_, end, SEEK_SET) < 0) {
      Logger("broker")->error("{}: cannot cut a partial record at byte {}", path_, end);
    }
    return written;
  }
  if (sync_ && ::fdatasync(fd_) != 0) return ErrnoError(errno, "fdatasync", path_);
  ++records_in_file_;
  if (records_in_file_ > 10000 && records_in_file_ > 4 * live.size()) return Compact(live);
  return OkStatus();
}

}  // namespace floe::broker

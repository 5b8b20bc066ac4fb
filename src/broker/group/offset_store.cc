#include "broker/group/offset_store.h"

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
constexpr uint32_t kMaxRecord = 1 << 20;

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

}  // namespace

std::string EncodeOffsetRecord(const OffsetStore::Key& key, const CommittedOffset& value) {
  std::string out;
  ByteWriter w(&out);
  const auto& [group, topic, partition] = key;
  w.AppendBig<uint16_t>(static_cast<uint16_t>(group.size()));
  w.AppendBytes(group);
  w.AppendBig<uint16_t>(static_cast<uint16_t>(topic.size()));
  w.AppendBytes(topic);
  w.AppendBig<int32_t>(partition);
  w.AppendBig<int64_t>(value.offset);
  w.AppendBig<int32_t>(value.metadata ? static_cast<int32_t>(value.metadata->size()) : -1);
  if (value.metadata) w.AppendBytes(*value.metadata);
  return out;
}

Result<std::pair<OffsetStore::Key, CommittedOffset>> DecodeOffsetRecord(std::string_view body) {
  ByteReader r(body);
  FLOE_ASSIGN_OR_RETURN(uint16_t group_len, r.ReadBig<uint16_t>("group length"));
  FLOE_ASSIGN_OR_RETURN(std::string_view group, r.ReadBytes(group_len, "group"));
  FLOE_ASSIGN_OR_RETURN(uint16_t topic_len, r.ReadBig<uint16_t>("topic length"));
  FLOE_ASSIGN_OR_RETURN(std::string_view topic, r.ReadBytes(topic_len, "topic"));
  FLOE_ASSIGN_OR_RETURN(int32_t partition, r.ReadBig<int32_t>("partition"));
  CommittedOffset value;
  FLOE_ASSIGN_OR_RETURN(value.offset, r.ReadBig<int64_t>("offset"));
  FLOE_ASSIGN_OR_RETURN(int32_t meta_len, r.ReadBig<int32_t>("metadata length"));
  if (meta_len < -1) return Corruption("offset record: metadata length {}", meta_len);
  if (meta_len >= 0) {
    FLOE_ASSIGN_OR_RETURN(std::string_view meta, r.ReadBytes(static_cast<size_t>(meta_len), "metadata"));
    value.metadata = std::string(meta);
  }
  if (!r.empty()) return Corruption("offset record: {} trailing bytes", r.remaining());
  return std::pair{OffsetStore::Key{std::string(group), std::string(topic), partition}, value};
}

Result<std::unique_ptr<OffsetStore>> OffsetStore::Open(const std::string& data_dir, bool sync) {
  std::string dir = data_dir + "/groups";
  std::error_code ec;
  std::filesystem::create_directories(dir, ec);
  if (ec) return IoError("create {}: {}", dir, ec.message());
  std::unique_ptr<OffsetStore> store(new OffsetStore(dir + "/offsets.log", sync));
  FLOE_RETURN_IF_ERROR(store->Replay());
  return store;
}

OffsetStore::~OffsetStore() {
  if (fd_ >= 0) ::close(fd_);
}

Status OffsetStore::Replay() {
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
  while (r.remaining() >= kFrameHeader) {
    uint32_t length = *r.ReadBig<uint32_t>("length");
    uint32_t crc = *r.ReadBig<uint32_t>("crc");
    if (length > kMaxRecord || length > r.remaining()) break;
    std::string_view body = *r.ReadBytes(length, "body");
    if (crc32c::Value(body.data(), body.size()) != crc) break;
    auto record = DecodeOffsetRecord(body);
    if (!record) break;
    if (record->second.offset < 0) {
      offsets_.erase(record->first);
    } else {
      offsets_[record->first] = record->second;
    }
    ++records_in_file_;
    valid_end = r.position();
  }
  if (valid_end < contents.size()) {
    Logger("broker")->warn("{}: cut a torn tail of {} bytes", path_, contents.size() - valid_end);
    if (::ftruncate(fd_, static_cast<off_t>(valid_end)) != 0) return ErrnoError(errno, "truncate", path_);
  }
  if (::lseek(fd_, static_cast<off_t>(valid_end), SEEK_SET) < 0) return ErrnoError(errno, "seek", path_);
  if (records_in_file_ > 1000 && records_in_file_ > 4 * offsets_.size()) return Compact();
  return OkStatus();
}

Status OffsetStore::Compact() {
  std::string bytes;
  for (const auto& [key, value] : offsets_) bytes += Frame(EncodeOffsetRecord(key, value));
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
    ::close(fd);
    return ErrnoError(errno, "rename", tmp);
  }
  ::close(fd_);
  fd_ = fd;
  if (::lseek(fd_, 0, SEEK_END) < 0) return ErrnoError(errno, "seek", path_);
  records_in_file_ = offsets_.size();
  return OkStatus();
}

Status OffsetStore::AppendRecord(const Key& key, const CommittedOffset& value) {
  FLOE_RETURN_IF_ERROR(WriteFully(fd_, Frame(EncodeOffsetRecord(key, value)), path_));
  if (sync_ && ::fdatasync(fd_) != 0) return ErrnoError(errno, "fdatasync", path_);
  ++records_in_file_;
  if (records_in_file_ > 100000 && records_in_file_ > 4 * offsets_.size()) return Compact();
  return OkStatus();
}

Status OffsetStore::Commit(const std::string& group, const std::string& topic, int32_t partition,
                           const CommittedOffset& value) {
  if (group.size() > 0xFFFF || topic.size() > 0xFFFF) return InvalidArgument("group or topic name too long");
  Key key{group, topic, partition};
  FLOE_RETURN_IF_ERROR(AppendRecord(key, value));
  offsets_[key] = value;
  return OkStatus();
}

std::optional<CommittedOffset> OffsetStore::Fetch(const std::string& group, const std::string& topic,
                                                  int32_t partition) const {
  auto it = offsets_.find(Key{group, topic, partition});
  if (it == offsets_.end()) return std::nullopt;
  return it->second;
}

std::vector<std::pair<OffsetStore::Key, CommittedOffset>> OffsetStore::ForGroup(const std::string& group) const {
  std::vector<std::pair<Key, CommittedOffset>> out;
  for (auto it = offsets_.lower_bound(Key{group, "", INT32_MIN}); it != offsets_.end() && std::get<0>(it->first) == group;
       ++it) {
    out.emplace_back(it->first, it->second);
  }
  return out;
}

std::vector<std::string> OffsetStore::Groups() const {
  std::vector<std::string> out;
  for (const auto& [key, value] : offsets_) {
    if (out.empty() || out.back() != std::get<0>(key)) out.push_back(std::get<0>(key));
  }
  return out;
}

Status OffsetStore::RemoveTopic(const std::string& topic) {
  return RemoveWhere([&](const Key& key) { return std::get<1>(key) == topic; });
}

Status OffsetStore::RemoveGroup(const std::string& group) {
  return RemoveWhere([&](const Key& key) { return std::get<0>(key) == group; });
}

// A removal is a record with offset -1 per key, so replay forgets the keys too.
Status OffsetStore::RemoveWhere(const std::function<bool(const Key&)>& doomed_key) {
  std::vector<Key> doomed;
  for (const auto& [key, value] : offsets_) {
    if (doomed_key(key)) doomed.push_back(key);
  }
  for (const Key& key : doomed) {
    FLOE_RETURN_IF_ERROR(AppendRecord(key, CommittedOffset{-1, std::nullopt}));
    offsets_.erase(key);
  }
  return OkStatus();
}

}  // namespace floe::broker

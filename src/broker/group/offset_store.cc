#include "broker/group/offset_store.h"

#include <filesystem>

#include "base/bytes.h"

namespace floe::broker {
namespace {

constexpr uint32_t kMaxOffsetRecord = 1 << 20;

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
  std::unique_ptr<OffsetStore> store(new OffsetStore());
  // The last record per key wins; offset -1 removes the key.
  auto replay = [offsets = &store->offsets_](std::string_view body) -> Status {
    FLOE_ASSIGN_OR_RETURN(auto record, DecodeOffsetRecord(body));
    if (record.second.offset < 0) {
      offsets->erase(record.first);
    } else {
      (*offsets)[record.first] = record.second;
    }
    return OkStatus();
  };
  FLOE_ASSIGN_OR_RETURN(
      store->file_,
      FramedRecordFile::Open(dir + "/offsets.log", {.max_record_bytes = kMaxOffsetRecord, .sync = sync}, replay));
  if (store->file_->records() > 1000 && store->file_->records() > 4 * store->offsets_.size()) {
    FLOE_RETURN_IF_ERROR(store->Compact());
  }
  return store;
}

Status OffsetStore::Compact() {
  std::vector<std::string> bodies;
  bodies.reserve(offsets_.size());
  for (const auto& [key, value] : offsets_) bodies.push_back(EncodeOffsetRecord(key, value));
  return file_->Rewrite(bodies);
}

Status OffsetStore::AppendRecord(const Key& key, const CommittedOffset& value) {
  FLOE_RETURN_IF_ERROR(file_->Append(EncodeOffsetRecord(key, value)));
  if (file_->records() > 100000 && file_->records() > 4 * offsets_.size()) return Compact();
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

Status OffsetStore::Remove(const std::string& group, const std::string& topic, int32_t partition) {
  const Key doomed{group, topic, partition};
  return RemoveWhere([&](const Key& key) { return key == doomed; });
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

// Committed consumer-group offsets, persisted in `<data>/groups/offsets.log`: a
// FramedRecordFile of offset records (docs/kafka.md, "Group offsets"), replayed on start (a torn tail is
// cut at the last valid record) and rewritten compacted when mostly superseded.
//
// Owned by the GroupCoordinator; I/O thread only.
#pragma once

#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <tuple>
#include <vector>

#include "base/result.h"
#include "broker/log/framed_record_file.h"

namespace floe::broker {

// The longest metadata string an offset commit may carry (Kafka's `offset.metadata.max.bytes`
// default); longer ones get OFFSET_METADATA_TOO_LARGE and are not stored.
inline constexpr size_t kMaxOffsetMetadataBytes = 4096;

struct CommittedOffset {
  int64_t offset = -1;
  std::optional<std::string> metadata;
};

class OffsetStore {
 public:
  // `sync` makes every commit fdatasync before it is acknowledged.
  static Result<std::unique_ptr<OffsetStore>> Open(const std::string& data_dir, bool sync);

  using Key = std::tuple<std::string, std::string, int32_t>;  // group, topic, partition

  Status Commit(const std::string& group, const std::string& topic, int32_t partition, const CommittedOffset& value);
  std::optional<CommittedOffset> Fetch(const std::string& group, const std::string& topic, int32_t partition) const;
  // Every (topic, partition) -> offset the group has committed.
  std::vector<std::pair<Key, CommittedOffset>> ForGroup(const std::string& group) const;
  std::vector<std::string> Groups() const;
  // Forgets a deleted topic's offsets.
  Status RemoveTopic(const std::string& topic);
  // Forgets a deleted group's offsets.
  Status RemoveGroup(const std::string& group);
  // Forgets one committed offset (OffsetDelete); nothing to forget is not an error.
  Status Remove(const std::string& group, const std::string& topic, int32_t partition);

 private:
  OffsetStore() = default;
  Status Compact();
  Status AppendRecord(const Key& key, const CommittedOffset& value);
  Status RemoveWhere(const std::function<bool(const Key&)>& doomed_key);

  std::unique_ptr<FramedRecordFile> file_;
  std::map<Key, CommittedOffset> offsets_;
};

// Encodes and decodes one record body (exposed for the garbage and truncation tests).
std::string EncodeOffsetRecord(const OffsetStore::Key& key, const CommittedOffset& value);
Result<std::pair<OffsetStore::Key, CommittedOffset>> DecodeOffsetRecord(std::string_view body);

}  // namespace floe::broker

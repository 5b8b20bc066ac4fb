#include "stream/micro_batch.h"

namespace floe::stream {

void MicroBatch::Add(int32_t partition, int64_t offset, int64_t timestamp_millis, const void* value, size_t size) {
  SourceRecord record{partition, offset, timestamp_millis, arena_.size(), static_cast<uint32_t>(size), value == nullptr};
  if (value != nullptr) arena_.append(static_cast<const char*>(value), size);
  records_.push_back(record);
  start_offsets_.try_emplace(partition, offset);
  end_offsets_[partition] = offset + 1;
}

void MicroBatch::Clear() {
  arena_.clear();
  records_.clear();
  start_offsets_.clear();
  end_offsets_.clear();
}

void MicroBatch::DropCommitted(const SourceOffsets& committed) {
  // Usually nothing is committed past the batch's start: keep the arena as it is then, rather
  // than copying the whole batch once per commit.
  bool any = false;
  for (const auto& [partition, start] : start_offsets_) {
    auto it = committed.find(partition);
    any = any || (it != committed.end() && start < it->second);
  }
  if (!any) return;
  std::string arena;
  std::vector<SourceRecord> kept;
  SourceOffsets starts, ends;
  for (const SourceRecord& record : records_) {
    auto it = committed.find(record.partition);
    if (it != committed.end() && record.offset < it->second) continue;
    SourceRecord copy = record;
    copy.value_begin = arena.size();
    arena.append(arena_.data() + record.value_begin, record.value_size);
    kept.push_back(copy);
    starts.try_emplace(record.partition, record.offset);
    ends[record.partition] = record.offset + 1;
  }
  arena_ = std::move(arena);
  records_ = std::move(kept);
  start_offsets_ = std::move(starts);
  end_offsets_ = std::move(ends);
}

}  // namespace floe::stream

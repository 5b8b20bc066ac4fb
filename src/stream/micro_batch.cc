#include "stream/micro_batch.h"

#include <algorithm>
#include <cstring>

namespace floe::stream {

namespace {
constexpr size_t kBlockBytes = 1 << 20;
}  // namespace

void MicroBatch::Track(int32_t partition, int64_t offset) {
  if (partition != run_partition_ || run_end_ == nullptr) {
    start_offsets_.try_emplace(partition, offset);
    run_end_ = &end_offsets_[partition];  // std::map values stay where they are.
    run_partition_ = partition;
  }
  *run_end_ = offset + 1;
}

const char* MicroBatch::Copy(const void* bytes, size_t size) {
  if (size > block_left_) {
    const size_t block = std::max(kBlockBytes, size);
    blocks_.push_back(std::make_unique_for_overwrite<char[]>(block));
    block_at_ = blocks_.back().get();
    block_left_ = block;
  }
  if (size > 0) std::memcpy(block_at_, bytes, size);
  const char* copy = block_at_;
  block_at_ += size;
  block_left_ -= size;
  return copy;
}

void MicroBatch::Add(int32_t partition, int64_t offset, int64_t timestamp_millis, const void* value, size_t size,
                     const void* key, size_t key_size) {
  const char* copy = value != nullptr ? Copy(value, size) : nullptr;
  const char* key_copy = key != nullptr ? Copy(key, key_size) : nullptr;
  records_.push_back({partition, offset, timestamp_millis, copy, static_cast<uint32_t>(size), value == nullptr,
                      key_copy, static_cast<uint32_t>(key_size)});
  value_bytes_ += size;
  Track(partition, offset);
}

void MicroBatch::AddHeld(int32_t partition, int64_t offset, int64_t timestamp_millis, const void* value, size_t size,
                         void* handle, Release release, const void* key, size_t key_size) {
  held_.push_back(handle);
  release_ = release;
  records_.push_back({partition, offset, timestamp_millis, static_cast<const char*>(value), static_cast<uint32_t>(size),
                      value == nullptr, static_cast<const char*>(key), static_cast<uint32_t>(key_size)});
  value_bytes_ += size;
  Track(partition, offset);
}

void MicroBatch::AddBorrowed(const SourceRecord& record) {
  records_.push_back(record);
  value_bytes_ += record.value_size;
  Track(record.partition, record.offset);
}

void MicroBatch::Clear() {
  for (void* handle : held_) release_(handle);
  held_.clear();
  blocks_.clear();
  block_at_ = nullptr;
  block_left_ = 0;
  records_.clear();
  value_bytes_ = 0;
  start_offsets_.clear();
  end_offsets_.clear();
  run_partition_ = -1;
  run_end_ = nullptr;
}

void MicroBatch::DropCommitted(const SourceOffsets& committed) {
  bool any = false;
  for (const auto& [partition, start] : start_offsets_) {
    auto it = committed.find(partition);
    any = any || (it != committed.end() && start < it->second);
  }
  if (!any) return;
  // Values stay where they are (held or in blocks) until Clear: only the records go.
  std::erase_if(records_, [&](const SourceRecord& record) {
    auto it = committed.find(record.partition);
    return it != committed.end() && record.offset < it->second;
  });
  value_bytes_ = 0;
  start_offsets_.clear();
  end_offsets_.clear();
  run_partition_ = -1;
  run_end_ = nullptr;
  for (const SourceRecord& record : records_) {
    value_bytes_ += record.value_size;
    Track(record.partition, record.offset);
  }
}

}  // namespace floe::stream

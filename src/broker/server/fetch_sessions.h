// Incremental fetch sessions (KIP-227): a consumer that fetches many partitions sends them all
// once, and afterwards only the partitions whose fetch offset changed (plus any it stops
// fetching, as "forgotten"); the broker answers only the partitions with records, an error or
// new offsets to report. The cache keeps each session's partitions, what the client last
// heard of each, and the epoch its next request must carry.
//
// Bounded, since any client may open sessions: at most `max_sessions` (the least recently used
// is evicted for a new one) and `max_partitions` across all of them (a session that would pass
// it is not created, or is closed, and the client falls back to full fetches). A session
// belongs to the user that opened it. I/O thread only, as every broker structure.
#pragma once

#include <cstdint>
#include <list>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "broker/protocol/error_code.h"

namespace floe::broker {

struct FetchSessionPartition {
  std::string topic;
  int32_t partition = 0;
  int64_t fetch_offset = 0;
  int32_t max_bytes = 0;
  // What the client was last told; -1 until a response carried the partition.
  int64_t high_watermark = -1;
  int64_t last_stable_offset = -1;
  int64_t log_start_offset = -1;
};

struct FetchSession {
  int32_t id = 0;
  int32_t next_epoch = 1;  // The epoch the next incremental request must carry.
  std::string user;
  std::vector<FetchSessionPartition> partitions;  // In the order they were added.

  // Adds the partition, or updates its fetch offset and byte limit.
  void Upsert(const std::string& topic, int32_t partition, int64_t fetch_offset, int32_t max_bytes);
  void Forget(const std::string& topic, int32_t partition);
};

class FetchSessionCache {
 public:
  explicit FetchSessionCache(size_t max_sessions = 1000, size_t max_partitions = 100000)
      : max_sessions_(max_sessions), max_partitions_(max_partitions) {}

  // A new, empty session of `user` (epoch 1 next), or null when `partitions` would not fit.
  std::shared_ptr<FetchSession> Create(const std::string& user, size_t partitions);
  // Session `id` of `user` expecting `epoch`; otherwise null with FETCH_SESSION_ID_NOT_FOUND
  // (unknown, evicted or another user's) or INVALID_FETCH_SESSION_EPOCH in `error`.
  std::shared_ptr<FetchSession> Find(int32_t id, const std::string& user, int32_t epoch, ErrorCode* error);
  // After an incremental request changed a session's partitions: false (and the session is
  // closed) when the cache's partition budget no longer holds it.
  bool Resized(const FetchSession& session);
  void Remove(int32_t id);

  size_t size() const { return sessions_.size(); }

 private:
  size_t max_sessions_;
  size_t max_partitions_;
  size_t partitions_ = 0;  // Across all sessions, as of their last Create or Resized.
  int32_t next_id_ = 1;
  struct Entry {
    std::shared_ptr<FetchSession> session;
    size_t partitions = 0;
    std::list<int32_t>::iterator recency;
  };
  std::map<int32_t, Entry> sessions_;
  std::list<int32_t> recency_;  // Most recently used first.
};

}  // namespace floe::broker

#include "broker/server/fetch_sessions.h"

#include <algorithm>

namespace floe::broker {

void FetchSession::Upsert(const std::string& topic, int32_t partition, int64_t fetch_offset, int32_t max_bytes) {
  for (FetchSessionPartition& p : partitions) {
    if (p.topic == topic && p.partition == partition) {
      p.fetch_offset = fetch_offset;
      p.max_bytes = max_bytes;
      return;
    }
  }
  partitions.push_back(FetchSessionPartition{topic, partition, fetch_offset, max_bytes});
}

void FetchSession::Forget(const std::string& topic, int32_t partition) {
  std::erase_if(partitions,
                [&](const FetchSessionPartition& p) { return p.topic == topic && p.partition == partition; });
}

std::shared_ptr<FetchSession> FetchSessionCache::Create(const std::string& user, size_t partitions) {
  if (max_sessions_ == 0 || partitions > max_partitions_) return nullptr;
  // Evict the least recently used sessions until the new one fits.
  while (!recency_.empty() && (sessions_.size() >= max_sessions_ || partitions_ + partitions > max_partitions_)) {
    Remove(recency_.back());
  }
  if (partitions_ + partitions > max_partitions_) return nullptr;
  // Ids are positive and not reused while a session holds one (0 means "no session").
  while (next_id_ <= 0 || sessions_.contains(next_id_)) next_id_ = next_id_ <= 0 ? 1 : next_id_ + 1;
  auto session = std::make_shared<FetchSession>();
  session->id = next_id_++;
  session->user = user;
  recency_.push_front(session->id);
  sessions_[session->id] = Entry{session, partitions, recency_.begin()};
  partitions_ += partitions;
  return session;
}

std::shared_ptr<FetchSession> FetchSessionCache::Find(int32_t id, const std::string& user, int32_t epoch,
                                                      ErrorCode* error) {
  auto it = sessions_.find(id);
  if (it == sessions_.end() || it->second.session->user != user) {
    *error = ErrorCode::kFetchSessionIdNotFound;
    return nullptr;
  }
  if (epoch != it->second.session->next_epoch) {
    *error = ErrorCode::kInvalidFetchSessionEpoch;
    return nullptr;
  }
  recency_.splice(recency_.begin(), recency_, it->second.recency);
  *error = ErrorCode::kNone;
  return it->second.session;
}

bool FetchSessionCache::Resized(const FetchSession& session) {
  auto it = sessions_.find(session.id);
  if (it == sessions_.end()) return false;
  size_t now = session.partitions.size();
  if (partitions_ - it->second.partitions + now > max_partitions_) {
    Remove(session.id);
    return false;
  }
  partitions_ = partitions_ - it->second.partitions + now;
  it->second.partitions = now;
  return true;
}

void FetchSessionCache::Remove(int32_t id) {
  auto it = sessions_.find(id);
  if (it == sessions_.end()) return;
  partitions_ -= it->second.partitions;
  recency_.erase(it->second.recency);
  sessions_.erase(it);
}

}  // namespace floe::broker

#include "broker/log/flusher.h"

#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <set>

#include "base/logging.h"

namespace floe::broker {

Flusher::Flusher(Poster post) : post_(std::move(post)), thread_([this] { Run(); }) {}

Flusher::~Flusher() { Stop(); }

void Flusher::Request(std::shared_ptr<SegmentFile> file, Callback done) {
  {
    std::lock_guard lock(mutex_);
    pending_.push_back({std::move(file), std::move(done)});
  }
  wake_.notify_one();
}

void Flusher::Stop() {
  {
    std::lock_guard lock(mutex_);
    if (stopping_ && !thread_.joinable()) return;
    stopping_ = true;
  }
  wake_.notify_one();
  if (thread_.joinable()) thread_.join();
}

uint64_t Flusher::syncs() const {
  std::lock_guard lock(mutex_);
  return syncs_;
}

void Flusher::Run() {
  std::vector<Pending> batch;
  for (;;) {
    {
      std::unique_lock lock(mutex_);
      wake_.wait(lock, [&] { return stopping_ || !pending_.empty(); });
      if (pending_.empty() && stopping_) return;
      batch.swap(pending_);
    }
    std::set<SegmentFile*> synced;
    for (const Pending& p : batch) {
      if (!synced.insert(p.file.get()).second) continue;
      if (::fdatasync(p.file->fd()) != 0) {
        // A failed fsync may have dropped dirty pages: acknowledging later writes would lie.
        Logger("broker")->critical("fdatasync failed: {}; stopping the broker", std::strerror(errno));
        std::abort();
      }
    }
    {
      std::lock_guard lock(mutex_);
      syncs_ += synced.size();
    }
    for (Pending& p : batch) {
      if (p.done) post_(std::move(p.done));
    }
    batch.clear();
  }
}

}  // namespace floe::broker

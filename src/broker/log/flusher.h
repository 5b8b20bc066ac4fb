// The group-commit thread: fdatasyncs segment files for partitions whose writers asked for
// durability, and reports back on the I/O thread. Requests that arrive while an fdatasync runs
// are served together by the next round, so many acks=all produces share one sync per file.
//
// Owned by the broker; Request() may be called from any thread (in practice the I/O thread).
// Completion callbacks run through `post` (onto the I/O thread), never on the flusher thread.
#pragma once

#include <condition_variable>
#include <functional>
#include <memory>
#include <mutex>
#include <thread>
#include <vector>

#include "broker/log/segment.h"

namespace floe::broker {

class Flusher {
 public:
  using Callback = std::function<void()>;
  using Poster = std::function<void(Callback)>;

  explicit Flusher(Poster post);
  ~Flusher();
  Flusher(const Flusher&) = delete;
  Flusher& operator=(const Flusher&) = delete;

  // Syncs `file` and then posts `done` (which may be empty).
  void Request(std::shared_ptr<SegmentFile> file, Callback done);
  // Finishes outstanding requests and joins the thread.
  void Stop();

  uint64_t syncs() const;

 private:
  void Run();

  struct Pending {
    std::shared_ptr<SegmentFile> file;
    Callback done;
  };

  Poster post_;
  mutable std::mutex mutex_;
  std::condition_variable wake_;
  std::vector<Pending> pending_;  // Guarded by mutex_.
  bool stopping_ = false;         // Guarded by mutex_.
  uint64_t syncs_ = 0;            // Guarded by mutex_.
  std::thread thread_;
};

}  // namespace floe::broker

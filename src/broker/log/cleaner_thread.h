// The log cleaner's thread: runs one CleanLog pass (log_cleaner.h) at a time, away from the I/O
// thread, and posts the result back to it. The broker decides what to clean and installs the
// result on the I/O thread (PartitionLog::PlanClean / InstallCleaned).
//
// Owned by the broker; Submit() and busy() are called on the I/O thread; completions run
// through `post` (onto the I/O thread), never on the cleaner thread.
#pragma once

#include <condition_variable>
#include <functional>
#include <mutex>
#include <optional>
#include <thread>

#include "broker/log/log_cleaner.h"

namespace floe::broker {

class CleanerThread {
 public:
  using Done = std::function<void(Result<CleanResult>)>;
  using Poster = std::function<void(std::function<void()>)>;

  explicit CleanerThread(Poster post);
  ~CleanerThread();
  CleanerThread(const CleanerThread&) = delete;
  CleanerThread& operator=(const CleanerThread&) = delete;

  // Whether a pass is queued, running, or done but its completion has not run yet.
  bool busy() const;
  // Queues `job`; at most one at a time (callers check busy()).
  void Submit(CleanJob job, Done done);
  // Abandons a queued pass, waits for a running one (its completion is dropped) and joins.
  void Stop();

 private:
  void Run();

  Poster post_;
  mutable std::mutex mutex_;
  std::condition_variable wake_;
  std::optional<CleanJob> job_;  // Guarded by mutex_.
  Done done_;                    // Guarded by mutex_.
  bool running_ = false;         // Guarded by mutex_.
  bool stopping_ = false;        // Guarded by mutex_.
  std::thread thread_;
};

}  // namespace floe::broker

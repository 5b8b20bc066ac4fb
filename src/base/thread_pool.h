// A fixed-size pool of worker threads running submitted tasks in FIFO order.
//
// Owned by whoever creates it; the destructor finishes queued tasks and joins the workers.
// Submit may be called from any thread, including from a task. Tasks must not throw: errors
// travel back as values (a Result written into the caller's state), never as exceptions.
#pragma once

#include <condition_variable>
#include <cstddef>
#include <deque>
#include <functional>
#include <mutex>
#include <thread>
#include <vector>

namespace floe {

class ThreadPool {
 public:
  explicit ThreadPool(size_t threads);
  ~ThreadPool();
  ThreadPool(const ThreadPool&) = delete;
  ThreadPool& operator=(const ThreadPool&) = delete;

  void Submit(std::function<void()> task);

  // Blocks until every task submitted so far has finished.
  void Wait();

  size_t size() const { return workers_.size(); }

 private:
  void WorkerLoop();

  std::mutex mutex_;
  std::condition_variable work_available_;
  std::condition_variable idle_;
  std::deque<std::function<void()>> queue_;  // Guarded by mutex_.
  size_t running_ = 0;                       // Guarded by mutex_.
  bool stopping_ = false;                    // Guarded by mutex_.
  std::vector<std::thread> workers_;
};

}  // namespace floe

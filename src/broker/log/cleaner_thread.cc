#include "broker/log/cleaner_thread.h"

#include <cstdio>
#include <memory>

namespace floe::broker {

CleanerThread::CleanerThread(Poster post) : post_(std::move(post)), thread_([this] { Run(); }) {}

CleanerThread::~CleanerThread() { Stop(); }

bool CleanerThread::busy() const {
  std::lock_guard lock(mutex_);
  return job_.has_value() || running_;
}

void CleanerThread::Submit(CleanJob job, Done done) {
  {
    std::lock_guard lock(mutex_);
    job_ = std::move(job);
    done_ = std::move(done);
  }
  wake_.notify_one();
}

void CleanerThread::Stop() {
  {
    std::lock_guard lock(mutex_);
    stopping_ = true;
    job_.reset();
  }
  wake_.notify_one();
  if (thread_.joinable()) thread_.join();
}

void CleanerThread::Run() {
  for (;;) {
    CleanJob job;
    Done done;
    {
      std::unique_lock lock(mutex_);
      wake_.wait(lock, [&] { return stopping_ || job_.has_value(); });
      if (stopping_) return;
      job = std::move(*job_);
      job_.reset();
      done = std::move(done_);
      running_ = true;
    }
    auto result = std::make_shared<Result<CleanResult>>(CleanLog(job));
    std::lock_guard lock(mutex_);
    if (stopping_) {
      // The I/O thread is going away: nobody installs the result, so its files go now (a
      // crash instead would leave them for the next open to delete).
      if (*result) {
        for (const CleanedGroup& g : (*result)->groups) std::remove(g.cleaned_path.c_str());
      }
      return;
    }
    // Busy until the result is installed: a next pass planned before would write the same
    // `.cleaned` names.
    post_([this, result, done = std::move(done)] {
      {
        std::lock_guard lock(mutex_);
        running_ = false;
      }
      done(std::move(*result));
    });
  }
}

}  // namespace floe::broker

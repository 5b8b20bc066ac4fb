// A one-shot wake-up a coroutine can wait on with a deadline: the asynchronous counterpart of
// a condition variable for code that all runs on the broker's single I/O thread.
//
// Owned by the waiting coroutine's frame; Notify() and the wait run on the I/O thread.
#pragma once

#include <chrono>

#include <utility>  // Before Boost 1.74 awaitable.hpp, which uses std::exchange without it.
#include <boost/asio/awaitable.hpp>
#include <boost/asio/redirect_error.hpp>
#include <boost/asio/steady_timer.hpp>
#include <boost/asio/use_awaitable.hpp>

namespace floe::broker {

class WakeSignal {
 public:
  explicit WakeSignal(const boost::asio::any_io_executor& executor) : timer_(executor) {}

  void Notify() {
    notified_ = true;
    timer_.cancel();
  }
  bool notified() const { return notified_; }
  void Reset() { notified_ = false; }

  // Returns true when notified, false when the deadline passed first.
  boost::asio::awaitable<bool> WaitUntil(std::chrono::steady_clock::time_point deadline) {
    if (notified_) co_return true;
    timer_.expires_at(deadline);
    boost::system::error_code ec;
    co_await timer_.async_wait(boost::asio::redirect_error(boost::asio::use_awaitable, ec));
    co_return notified_;
  }
  boost::asio::awaitable<void> Wait() {
    while (!notified_) co_await WaitUntil(std::chrono::steady_clock::time_point::max());
  }

 private:
  boost::asio::steady_timer timer_;
  bool notified_ = false;
};

}  // namespace floe::broker

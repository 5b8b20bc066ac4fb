#include "base/log_ring.h"

#include <fmt/format.h>
#include <spdlog/sinks/base_sink.h>

#include <algorithm>
#include <chrono>
#include <ctime>
#include <deque>
#include <mutex>

namespace floe {
namespace {

class LogRing final : public spdlog::sinks::base_sink<std::mutex> {
 public:
  // A copy of the newest lines of `components`, taken under the sink's own lock.
  std::vector<LogLine> Recent(const std::vector<std::string>& components, size_t max) {
    std::lock_guard lock(mutex_);
    std::vector<LogLine> out;
    for (auto it = lines_.rbegin(); it != lines_.rend() && out.size() < max; ++it) {
      if (std::find(components.begin(), components.end(), it->component) != components.end()) out.push_back(*it);
    }
    std::reverse(out.begin(), out.end());
    return out;
  }

 protected:
  // Called with mutex_ held. The raw fields are kept rather than the formatted line, so the
  // console shows the same thing whichever format (text, JSON) stderr gets.
  void sink_it_(const spdlog::details::log_msg& msg) override {
    LogLine line;
    line.time_ms = std::chrono::duration_cast<std::chrono::milliseconds>(msg.time.time_since_epoch()).count();
    auto level = spdlog::level::to_string_view(msg.level);
    line.level.assign(level.data(), level.size());
    line.component.assign(msg.logger_name.data(), msg.logger_name.size());
    line.text.assign(msg.payload.data(), std::min(msg.payload.size(), kLogRingMaxTextBytes));
    if (lines_.size() == kLogRingLines) lines_.pop_front();
    lines_.push_back(std::move(line));
  }
  void flush_() override {}

 private:
  std::deque<LogLine> lines_;
};

std::shared_ptr<LogRing> Ring() {
  static auto ring = std::make_shared<LogRing>();
  return ring;
}

}  // namespace

std::shared_ptr<spdlog::sinks::sink> LogRingSink() { return Ring(); }

std::vector<LogLine> RecentLogLines(const std::vector<std::string>& components, size_t max) {
  return Ring()->Recent(components, max);
}

std::string LogTimeText(int64_t time_ms) {
  std::time_t seconds = static_cast<std::time_t>(time_ms / 1000);
  std::tm tm{};
  gmtime_r(&seconds, &tm);
  return fmt::format("{:04}-{:02}-{:02}T{:02}:{:02}:{:02}.{:03}", tm.tm_year + 1900, tm.tm_mon + 1, tm.tm_mday,
                     tm.tm_hour, tm.tm_min, tm.tm_sec, time_ms % 1000);
}

}  // namespace floe

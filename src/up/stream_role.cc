#include "up/stream_role.h"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "base/logging.h"

namespace floe::up {

Status StreamRole::Start() {
  stopping_.store(false);
  thread_ = std::thread([this] {
    auto log = Logger("stream");
    while (!stopping_.load()) {
      Status status = stream::RunStream(config_, metrics_, &stopping_);
      if (stopping_.load()) break;
      if (!status) log->error("{}; starting again in 2 s", status.error().ToString());
      for (int i = 0; i < 20 && !stopping_.load(); ++i) std::this_thread::sleep_for(std::chrono::milliseconds(100));
    }
  });
  return OkStatus();
}

void StreamRole::Stop() {
  if (!thread_.joinable()) return;
  // The running job watches this flag itself, so no pointer to a job that may be gone is needed.
  stopping_.store(true);
  thread_.join();
}

std::string StreamRole::Describe() const {
  std::string partition =
      config_.partition.empty() ? "" : fmt::format(", partitioned by {}", fmt::join(config_.partition, ", "));
  return fmt::format("topic {} -> table {}{}{} (trigger {} ms, dead letters in {}_dlq, catalog {})", config_.topic,
                     config_.table, config_.key_columns.empty() ? "" : ", upserts by " + config_.key_columns[0],
                     partition, config_.trigger.interval_millis, config_.table, config_.catalog);
}

}  // namespace floe::up

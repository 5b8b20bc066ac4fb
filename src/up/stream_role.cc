#include "up/stream_role.h"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "base/logging.h"

namespace floe::up {

std::string StreamRole::WorkerClientId(int worker) { return fmt::format("floe-stream-worker-{}", worker); }

Status StreamRole::Start() {
  stopping_.store(false);
  for (int worker = 1; worker <= workers_; ++worker) {
    stream::StreamConfig config = config_;
    config.consumer_config["client.id"] = WorkerClientId(worker);
    // One worker maintains the table: two compacting it at once would only conflict.
    if (worker > 1) config.maintenance.interval_ms = 0;
    threads_.emplace_back([this, config = std::move(config)] {
      auto log = Logger("stream");
      while (!stopping_.load()) {
        Status status = stream::RunStream(config, metrics_, &stopping_);
        if (stopping_.load()) break;
        if (!status) log->error("{}; starting again in 2 s", status.error().ToString());
        for (int i = 0; i < 20 && !stopping_.load(); ++i) std::this_thread::sleep_for(std::chrono::milliseconds(100));
      }
    });
  }
  return OkStatus();
}

void StreamRole::Stop() {
  // The running jobs watch this flag themselves, so no pointer to a job that may be gone is needed.
  stopping_.store(true);
  for (std::thread& thread : threads_) thread.join();
  threads_.clear();
}

std::string StreamRole::Describe() const {
  std::string partition =
      config_.partition.empty() ? "" : fmt::format(", partitioned by {}", fmt::join(config_.partition, ", "));
  std::string workers = workers_ > 1 ? fmt::format(", {} workers", workers_) : "";
  return fmt::format("topic {} -> table {}{}{}{} (trigger {} ms, dead letters in {}_dlq, catalog {})", config_.topic,
                     config_.table, config_.key_columns.empty() ? "" : ", upserts by " + config_.key_columns[0],
                     partition, workers, config_.trigger.interval_millis, config_.table, config_.catalog);
}

}  // namespace floe::up

// The broker's topics: their partitions' logs and settings, persisted under
// `<data>/topics/<name>/` (topic.json plus one folder per partition).
//
// Owned by the Broker; I/O thread only.
#pragma once

#include <map>
#include <memory>
#include <string>
#include <vector>

#include "base/clock.h"
#include "base/result.h"
#include "broker/log/flusher.h"
#include "broker/log/log_config.h"
#include "broker/log/partition_log.h"

namespace floe::broker {

struct Topic {
  std::string name;
  std::map<std::string, std::string> overrides;  // Topic-level configs given at creation.
  LogConfig config;
  std::vector<std::shared_ptr<PartitionLog>> partitions;
};

class TopicRegistry {
 public:
  // Loads every topic under `data_dir`/topics. `flusher` may be null (never fsync).
  static Result<std::unique_ptr<TopicRegistry>> Open(std::string data_dir, LogConfig defaults, Clock& clock,
                                                     Flusher* flusher);

  Topic* Find(std::string_view name);
  const std::map<std::string, std::unique_ptr<Topic>, std::less<>>& topics() const { return topics_; }

  Result<Topic*> Create(const std::string& name, int32_t partitions, const std::map<std::string, std::string>& configs);
  Status Delete(const std::string& name);
  // CreatePartitions: grows a topic to `total` partitions (never shrinks). The new partitions'
  // folders exist before topic.json names them, so a crash leaves the old count.
  Status AddPartitions(const std::string& name, int32_t total);
  // AlterConfigs / IncrementalAlterConfigs: makes `overrides` the topic's whole set of
  // overrides (names absent from it return to the broker defaults). Validated first (an
  // InvalidArgument error changes nothing), then persisted in topic.json (temp file, fsync,
  // rename) before the partitions use it.
  Status ReplaceConfigs(const std::string& name, const std::map<std::string, std::string>& overrides);
  // Applies retention to every partition; errors are logged, not returned.
  void ApplyRetention();

  const LogConfig& defaults() const { return defaults_; }

 private:
  TopicRegistry(std::string data_dir, LogConfig defaults, Clock& clock, Flusher* flusher)
      : data_dir_(std::move(data_dir)), defaults_(defaults), clock_(clock), flusher_(flusher) {}

  std::string TopicDir(std::string_view name) const;
  Result<std::unique_ptr<Topic>> Load(const std::string& name);

  std::string data_dir_;
  LogConfig defaults_;
  Clock& clock_;
  Flusher* flusher_;
  std::map<std::string, std::unique_ptr<Topic>, std::less<>> topics_;
};

// Kafka's topic-name rule: 1-249 characters of [a-zA-Z0-9._-], not "." or "..".
Status ValidateTopicName(std::string_view name);

}  // namespace floe::broker

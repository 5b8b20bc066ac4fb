// SchemaTopicLog: the registry's durable storage, the compacted `_schemas` topic on a Kafka
// broker (floe's own, or any), as Confluent's registry keeps it. Writes are keyed records
// acknowledged by all in-sync replicas before Append returns, so a registration answered is
// a registration kept; Replay reads the topic from the start to its end once, at startup.
// Append from one thread at a time (SchemaRegistry serializes writes); Replay before any.
#pragma once

#include <functional>
#include <memory>
#include <optional>
#include <string>

#include "base/result.h"

namespace floe::registry {

// Where records go: the Kafka topic, or (in tests) memory.
class RecordLog {
 public:
  virtual ~RecordLog() = default;
  // Appends `key` with `value` (nullopt: a tombstone) and waits for the acknowledgement.
  virtual Status Append(const std::string& key, const std::optional<std::string>& value) = 0;
};

inline constexpr std::string_view kDefaultSchemasTopic = "_schemas";

class SchemaTopicLog final : public RecordLog {
 public:
  // Creates `topic` (one partition, cleanup.policy=compact) unless it exists, and connects.
  static Result<std::unique_ptr<SchemaTopicLog>> Open(const std::string& brokers, const std::string& topic);
  ~SchemaTopicLog() override;

  // Calls `apply` with every record from the first to the last present when Replay started.
  Status Replay(const std::function<void(const std::string& key, const std::optional<std::string>& value)>& apply);
  Status Append(const std::string& key, const std::optional<std::string>& value) override;

 private:
  struct Impl;
  explicit SchemaTopicLog(std::unique_ptr<Impl> impl);
  std::unique_ptr<Impl> impl_;
};

}  // namespace floe::registry

// KafkaProducer: a librdkafka producer for floe's own tools (the generator), so they work
// against floe's broker and any Kafka cluster alike.
//
// Idempotent (enable.idempotence) with acks=all by default, keyed messages partitioned with
// murmur2 as Java clients do. Delivery reports arrive on the thread that calls Poll or Flush.
// Not thread-safe: one owner thread.
#pragma once

#include <functional>
#include <map>
#include <memory>
#include <string>
#include <string_view>

#include "base/result.h"

struct rd_kafka_s;

namespace floe::generator {

struct DeliveryReport {
  std::string_view topic;  // Valid during the callback, as key and value.
  int32_t partition = -1;
  int64_t offset = -1;
  std::string_view key;
  std::string_view value;
  void* opaque = nullptr;  // What was passed to Produce.
  bool delivered = false;
  std::string error;  // Set when !delivered.
};

class KafkaProducer {
 public:
  using DeliveryCallback = std::function<void(const DeliveryReport&)>;

  // `config` entries override the defaults (acks=all, enable.idempotence=true, linger.ms=5,
  // partitioner=murmur2_random), e.g. {"compression.type", "zstd"}.
  static Result<std::unique_ptr<KafkaProducer>> Create(const std::string& brokers,
                                                       const std::map<std::string, std::string>& config,
                                                       DeliveryCallback on_delivery);
  ~KafkaProducer();
  KafkaProducer(const KafkaProducer&) = delete;
  KafkaProducer& operator=(const KafkaProducer&) = delete;

  // Enqueues one message, waiting (and serving delivery reports) while the local queue is full.
  Status Produce(std::string_view topic, std::string_view key, std::string_view value, void* opaque);
  // Serves delivery reports for up to `timeout_ms`.
  void Poll(int timeout_ms);
  // Waits until every enqueued message is acknowledged or failed, or the timeout passes.
  Status Flush(int timeout_ms);
  // Messages enqueued but not yet reported.
  int InFlight() const;

 private:
  KafkaProducer() = default;
  static void OnDeliveryReport(rd_kafka_s* kafka, const void* message, void* opaque);

  rd_kafka_s* kafka_ = nullptr;
  DeliveryCallback on_delivery_;
};

}  // namespace floe::generator

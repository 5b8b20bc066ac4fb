// ProduceLoop: drives an OrderEventGenerator into a KafkaProducer at a target rate.
//
// Order events go to `topic`; the payment or shipment an order event brings goes right behind it
// to `payments_topic` or `shipments_topic`, outside the rate and the count (which pace and count
// order events, so a seed and a count give the same orders stream with or without them).
//
// Paces with a token bucket on the monotonic clock (rate 0 = as fast as the producer takes
// them; paused = nothing but bursts), adds bursts on request, records every acknowledgement in the Ledger, and stops
// after `count` messages or when Stop() is called (from a signal handler's thread or a control page). Run() runs on the
// caller's thread; SetRate, Burst, RequestMarker and Stop may be called from others.
#pragma once

#include <atomic>
#include <cstdint>
#include <future>
#include <mutex>
#include <string>
#include <vector>

#include "base/result.h"
#include "generator/kafka_producer.h"
#include "generator/ledger.h"
#include "generator/order_event_generator.h"

namespace floe::generator {

struct ProduceOptions {
  std::string topic = "orders";
  double rate = 1000;  // Messages per second; 0 = unlimited.
  int64_t count = 0;   // Stop after this many messages; 0 = until stopped.
  std::string ledger_path;  // Written every second and at the end when non-empty.
  // Where payments and shipments go; set them when the generator makes them.
  std::string payments_topic;
  std::string shipments_topic;
};

class ProduceLoop {
 public:
  ProduceLoop(ProduceOptions options, OrderEventGenerator& generator, KafkaProducer& producer, Ledger& ledger);

  // Produces until done, then flushes (waiting up to 30 s for acknowledgements).
  Status Run();

  void SetRate(double rate) { rate_.store(rate); }
  // While paused only bursts are sent (the console's traffic slider at zero).
  void SetPaused(bool paused) { paused_.store(paused); }
  void Burst(int64_t messages) { burst_.fetch_add(messages); }
  // Asks the loop to produce one valid event next, paused or not, and gives back its event id
  // once the producer has taken it (Unavailable if the loop ends first). The event goes through
  // the ledger like every other, so the reconciliation counts it: the playground's freshness
  // marker, which a query then looks for by its id.
  std::future<Result<std::string>> RequestMarker();
  void Stop() { stop_.store(true); }
  // Order messages handed to the producer (payments and shipments are not counted).
  uint64_t sent() const { return sent_.load(); }

  // The delivery callback to give the KafkaProducer: records each report in `ledger`.
  static void OnDelivery(Ledger& ledger, const DeliveryReport& report);

 private:
  static char kValidMarker;  // Its address marks valid events in delivery reports.

  // Produces the payments and shipments the generator has waiting.
  Status ProducePending();

  ProduceOptions options_;
  OrderEventGenerator& generator_;
  KafkaProducer& producer_;
  Ledger& ledger_;
  std::atomic<double> rate_;
  std::atomic<int64_t> burst_{0};
  std::atomic<bool> paused_{false};
  std::atomic<bool> stop_{false};
  std::atomic<uint64_t> sent_{0};
  std::mutex marker_mutex_;
  std::vector<std::promise<Result<std::string>>> marker_requests_;  // Guarded by marker_mutex_.
};

}  // namespace floe::generator

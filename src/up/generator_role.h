// GeneratorRole: the order-events generator inside `floe up`, producing to the broker over the
// Kafka protocol (through librdkafka, exactly as an outside service would) on its own thread:
// the orders, and their payments and shipments when ProduceOptions names topics for them.
// Stop and Start again (the playground taking it down) keep the ledger, the sent count and the
// rate. Called from the pipeline under its lock.
#pragma once

#include <memory>
#include <thread>

#include "generator/kafka_producer.h"
#include "generator/ledger.h"
#include "generator/order_event_generator.h"
#include "generator/produce_loop.h"
#include "up/role.h"

namespace floe::up {

class GeneratorRole final : public Role {
 public:
  GeneratorRole(std::string brokers, generator::ProduceOptions options, double malformed_rate);
  ~GeneratorRole() override { Stop(); }

  std::string_view name() const override { return "generator"; }
  std::string Describe() const override;
  Status Start() override;
  void Stop() override;

  const generator::Ledger& ledger() const { return ledger_; }
  bool running() const { return loop_ != nullptr; }
  // Events per second; 0 pauses (only bursts are sent).
  void SetRate(double rate);
  double rate() const { return options_.rate; }
  Status Burst(int64_t events);
  // Asks the running loop for one valid event next (ProduceLoop::RequestMarker); the caller
  // waits on the future outside the pipeline's lock.
  Result<std::future<Result<std::string>>> RequestMarker();
  const generator::ProduceOptions& options() const { return options_; }
  // Order messages handed to the producer since the role was made, across restarts.
  uint64_t sent() const { return sent_before_ + (loop_ ? loop_->sent() : 0); }

 private:
  std::string brokers_;
  generator::ProduceOptions options_;
  double malformed_rate_;
  generator::Ledger ledger_;
  std::unique_ptr<generator::KafkaProducer> producer_;
  std::unique_ptr<generator::OrderEventGenerator> events_;
  std::unique_ptr<generator::ProduceLoop> loop_;
  std::thread thread_;
  uint64_t sent_before_ = 0;  // Sent by loops that have stopped (and by earlier runs).
  bool resumed_ = false;      // The ledger file of an earlier run has been read.
};

}  // namespace floe::up

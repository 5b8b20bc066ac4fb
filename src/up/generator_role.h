// GeneratorRole: the order-events generator inside `floe up`, producing to the broker over the
// Kafka protocol (through librdkafka, exactly as an outside service would) on its own thread.
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
  generator::ProduceLoop* loop() { return loop_.get(); }

 private:
  std::string brokers_;
  generator::ProduceOptions options_;
  double malformed_rate_;
  generator::Ledger ledger_;
  std::unique_ptr<generator::KafkaProducer> producer_;
  std::unique_ptr<generator::OrderEventGenerator> events_;
  std::unique_ptr<generator::ProduceLoop> loop_;
  std::thread thread_;
};

}  // namespace floe::up

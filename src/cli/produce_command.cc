// `floe produce`: the order-events generator, a Kafka producer of realistic shop events.
#include <fmt/format.h>

#include <csignal>

#include "base/clock.h"
#include "base/logging.h"
#include "cli/command.h"
#include "generator/kafka_producer.h"
#include "generator/order_event.h"
#include "generator/payment_event.h"
#include "generator/produce_loop.h"
#include "generator/shipment_event.h"

namespace floe::cli {
namespace {

std::atomic<generator::ProduceLoop*> running_loop{nullptr};

void StopOnSignal(int) {
  if (auto* loop = running_loop.load()) loop->Stop();
}

}  // namespace

void RegisterProduceCommand(CLI::App& root, CommandRegistry& registry) {
  struct Flags {
    std::string brokers = "127.0.0.1:9092", topic = "orders", ledger, compression = "none", acks = "all";
    std::string payments_topic, shipments_topic;  // Empty: no payments, no shipments.
    double rate = 1000, malformed_rate = 0.0;
    int64_t count = 0;
    uint64_t seed = 0;
    bool print_schema = false, print_payments_schema = false, print_shipments_schema = false, line_items = false;
  };
  auto flags = std::make_shared<Flags>();
  CLI::App* app = registry.Add(root, "produce", "Generate order events into a topic", "produce", [flags] {
    if (flags->print_schema) {
      fmt::print("{}\n", generator::OrdersSchemaJson(flags->line_items));
      return kExitOk;
    }
    if (flags->print_payments_schema) {
      fmt::print("{}\n", generator::PaymentsSchemaJson());
      return kExitOk;
    }
    if (flags->print_shipments_schema) {
      fmt::print("{}\n", generator::ShipmentsSchemaJson());
      return kExitOk;
    }
    // A shipment goes to the order's shipping address, which orders have with their line items.
    if (!flags->shipments_topic.empty() && !flags->line_items) {
      fmt::print(stderr,
                 "floe produce: --shipments-topic needs --line-items (a shipment goes to the order's "
                 "shipping address)\n");
      return kExitUsage;
    }
    if (flags->payments_topic == flags->topic || flags->shipments_topic == flags->topic ||
        (!flags->payments_topic.empty() && flags->payments_topic == flags->shipments_topic)) {
      fmt::print(stderr, "floe produce: --topic, --payments-topic and --shipments-topic must differ\n");
      return kExitUsage;
    }
    generator::Ledger ledger;
    if (!flags->ledger.empty()) {
      if (auto resumed = ledger.Resume(flags->ledger, flags->topic); !resumed) {
        fmt::print(stderr, "floe produce: {}\n", resumed.error().ToString());
        return kExitUsage;
      }
    }
    auto producer = generator::KafkaProducer::Create(
        flags->brokers, {{"compression.type", flags->compression}, {"acks", flags->acks}},
        [&ledger](const generator::DeliveryReport& report) { generator::ProduceLoop::OnDelivery(ledger, report); });
    if (!producer) {
      fmt::print(stderr, "floe produce: {}\n", producer.error().ToString());
      return kExitUsage;
    }
    uint64_t seed = flags->seed != 0 ? flags->seed : static_cast<uint64_t>(Clock::System().MonotonicNanos());
    // A given seed repeats a stream exactly (orders from 1); otherwise each run numbers its
    // orders apart from every earlier run's.
    int64_t first_order_id = flags->seed != 0 ? 1 : generator::UniqueFirstOrderId(Clock::System());
    generator::OrderEventGenerator events({.seed = seed,
                                           .malformed_rate = flags->malformed_rate,
                                           .first_order_id = first_order_id,
                                           .line_items = flags->line_items,
                                           .payments = !flags->payments_topic.empty(),
                                           .shipments = !flags->shipments_topic.empty()},
                                          Clock::System());
    generator::ProduceLoop loop({.topic = flags->topic,
                                 .rate = flags->rate,
                                 .count = flags->count,
                                 .ledger_path = flags->ledger,
                                 .payments_topic = flags->payments_topic,
                                 .shipments_topic = flags->shipments_topic},
                                events, **producer, ledger);
    running_loop.store(&loop);
    std::signal(SIGINT, StopOnSignal);
    std::signal(SIGTERM, StopOnSignal);
    Status status = loop.Run();
    running_loop.store(nullptr);
    generator::PartitionLedger total = ledger.Total(flags->topic);
    fmt::print(stderr, "floe produce: sent {}, acknowledged {} ({} valid, {} malformed), failed {}\n", loop.sent(),
               total.acked, total.acked_valid, total.acked_malformed, total.failed);
    uint64_t failed = total.failed;
    for (const std::string& side : {flags->payments_topic, flags->shipments_topic}) {
      if (side.empty()) continue;
      generator::PartitionLedger side_total = ledger.Total(side);
      fmt::print(stderr, "floe produce: {}: acknowledged {}, failed {}\n", side, side_total.acked, side_total.failed);
      failed += side_total.failed;
    }
    if (!status) {
      fmt::print(stderr, "floe produce: {}\n", status.error().ToString());
      return kExitFailure;
    }
    return failed == 0 ? kExitOk : kExitFailure;
  });
  app->add_option("--brokers", flags->brokers, "Bootstrap HOST:PORT of any Kafka")->capture_default_str();
  app->add_option("--topic", flags->topic, "Topic to produce to")->capture_default_str();
  app->add_option("--rate", flags->rate, "Events per second (0: as fast as possible)")->capture_default_str();
  app->add_option("--count", flags->count, "Stop after this many events (0: run until SIGINT/SIGTERM)")
      ->capture_default_str();
  app->add_option("--malformed-rate", flags->malformed_rate, "Share of deliberately malformed events, 0 to 1")
      ->check(CLI::Range(0.0, 1.0))
      ->capture_default_str();
  app->add_option("--seed", flags->seed, "Random seed (default: from the clock); the same seed, the same events");
  app->add_option("--ledger", flags->ledger,
                  "Write what the broker acknowledged (count and checksums per partition) to this JSON file; "
                  "an existing ledger of the same topic is continued");
  app->add_option("--compression", flags->compression, "none, gzip, snappy, lz4 or zstd")
      ->check(CLI::IsMember({"none", "gzip", "snappy", "lz4", "zstd"}))
      ->capture_default_str();
  app->add_flag("--print-schema", flags->print_schema,
                "Print the Iceberg schema of the events (shop.orders) and exit");
  app->add_flag("--line-items", flags->line_items,
                "Orders carry their line items (sku, quantity, unit price) and shipping address "
                "(docs/orders.md); with --print-schema, the schema that has them");
  app->add_option("--payments-topic", flags->payments_topic,
                  "Also send one payment event per paid order to this topic, e.g. payments (docs/orders.md)");
  app->add_option("--shipments-topic", flags->shipments_topic,
                  "Also send one shipment event per shipped order to this topic, e.g. shipments; needs --line-items");
  app->add_flag("--print-payments-schema", flags->print_payments_schema,
                "Print the Iceberg schema of the payment events (shop.payments) and exit");
  app->add_flag("--print-shipments-schema", flags->print_shipments_schema,
                "Print the Iceberg schema of the shipment events (shop.shipments) and exit");
  app->add_option("--acks", flags->acks, "0, 1 or all")->check(CLI::IsMember({"0", "1", "all"}))->capture_default_str();
}

}  // namespace floe::cli

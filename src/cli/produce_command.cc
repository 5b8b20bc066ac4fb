// `floe produce`: the order-events generator, a Kafka producer of realistic shop events.
#include "cli/command.h"

namespace floe::cli {

void RegisterProduceCommand(CLI::App& root, CommandRegistry& registry) {
  struct Flags {
    std::string brokers = "127.0.0.1:9092", topic = "orders";
    double rate = 1000;
    int64_t count = 0;
  };
  auto flags = std::make_shared<Flags>();
  CLI::App* app = registry.Add(root, "produce", "Generate order events into a topic", "produce",
                               [] { return NotBuiltYet("produce", "the order-events generator", 11); });
  app->add_option("--brokers", flags->brokers, "Bootstrap HOST:PORT")->capture_default_str();
  app->add_option("--topic", flags->topic, "Topic to produce to")->capture_default_str();
  app->add_option("--rate", flags->rate, "Events per second")->capture_default_str();
  app->add_option("--count", flags->count, "Stop after this many events (0: run until stopped)")
      ->capture_default_str();
}

}  // namespace floe::cli

// `floe broker`: the Kafka-protocol broker (src/broker).
#include "cli/command.h"

namespace floe::cli {

void RegisterBrokerCommand(CLI::App& root, CommandRegistry& registry) {
  struct Flags {
    std::string listen = "127.0.0.1:9092";
    std::string advertise;
    std::string data = "./floe-data/broker";
    std::string metrics_listen = "127.0.0.1:9644";
  };
  auto flags = std::make_shared<Flags>();
  CLI::App* app = registry.Add(root, "broker", "Run the Kafka-protocol broker: a durable partitioned log", "broker",
                               [] { return NotBuiltYet("broker", "the Kafka-protocol broker", 7); });
  app->add_option("--listen", flags->listen, "HOST:PORT to accept Kafka clients on")->capture_default_str();
  app->add_option("--advertise", flags->advertise, "HOST:PORT clients are told to connect to (default: --listen)");
  app->add_option("--data", flags->data, "Folder for partition logs, topic and group metadata")->capture_default_str();
  app->add_option("--metrics-listen", flags->metrics_listen, "HOST:PORT serving Prometheus /metrics")
      ->capture_default_str();
}

}  // namespace floe::cli

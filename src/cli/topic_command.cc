// `floe topic`: create, list, describe and delete topics on a broker over the Kafka protocol.
#include "cli/command.h"

namespace floe::cli {

void RegisterTopicCommand(CLI::App& root, CommandRegistry& registry) {
  struct Flags {
    std::string brokers = "127.0.0.1:9092";
    std::string topic;
    int partitions = 1;
  };
  auto flags = std::make_shared<Flags>();
  CLI::App* topic = root.add_subcommand("topic", "Manage topics on a broker (any Kafka, or floe broker)");
  topic->require_subcommand(1);
  auto not_built = [] { return NotBuiltYet("topic", "topic administration", 7); };
  for (const char* verb : {"create", "list", "describe", "delete"}) {
    CLI::App* app = registry.Add(*topic, verb, fmt::format("{} topics", verb), "topic", not_built);
    app->add_option("--brokers", flags->brokers, "Bootstrap HOST:PORT")->capture_default_str();
    if (std::string_view(verb) != "list") app->add_option("topic", flags->topic, "Topic name")->required();
    if (std::string_view(verb) == "create") {
      app->add_option("--partitions", flags->partitions, "Partition count")->capture_default_str();
    }
  }
}

}  // namespace floe::cli

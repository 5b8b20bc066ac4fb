// `floe topic`: create, list, describe and delete topics on a broker over the Kafka protocol.
#include "broker/admin/topic_admin.h"
#include "cli/command.h"

namespace floe::cli {
namespace {

struct TopicFlags {
  std::string brokers = "127.0.0.1:9092";
  std::string topic;
  int32_t partitions = 1;
  std::vector<std::string> configs;
};

int FailTopic(std::string_view verb, const Error& error) {
  fmt::print(stderr, "floe topic {}: {}\n", verb, error.ToString());
  return ExitCodeFor(error);
}

int RunTopic(std::string_view verb, const TopicFlags& flags) {
  if (verb == "create") {
    std::map<std::string, std::string> configs;
    for (const std::string& kv : flags.configs) {
      size_t eq = kv.find('=');
      if (eq == std::string::npos)
        return FailTopic(verb, Error(ErrorKind::kInvalidArgument, "--config wants KEY=VALUE"));
      configs[kv.substr(0, eq)] = kv.substr(eq + 1);
    }
    if (auto s = broker::CreateTopic(flags.brokers, flags.topic, flags.partitions, configs); !s)
      return FailTopic(verb, s.error());
    fmt::print("created topic {} with {} partitions\n", flags.topic, flags.partitions);
    return kExitOk;
  }
  if (verb == "delete") {
    if (auto s = broker::DeleteTopic(flags.brokers, flags.topic); !s) return FailTopic(verb, s.error());
    fmt::print("deleted topic {}\n", flags.topic);
    return kExitOk;
  }
  if (verb == "list") {
    auto topics = broker::ListTopics(flags.brokers);
    if (!topics) return FailTopic(verb, topics.error());
    for (const auto& t : *topics) fmt::print("{}\t{} partitions\n", t.name, t.partitions);
    return kExitOk;
  }
  auto info = broker::DescribeTopic(flags.brokers, flags.topic);
  if (!info) return FailTopic(verb, info.error());
  fmt::print("topic {}\npartitions {}\n", info->name, info->partitions);
  for (size_t p = 0; p < info->high_watermarks.size(); ++p) {
    fmt::print("  partition {} high_watermark {}\n", p, info->high_watermarks[p]);
  }
  for (const auto& [key, value] : info->configs) fmt::print("  config {}={}\n", key, value);
  return kExitOk;
}

}  // namespace

void RegisterTopicCommand(CLI::App& root, CommandRegistry& registry) {
  CLI::App* topic = root.add_subcommand("topic", "Manage topics on a broker (any Kafka, or floe broker)");
  topic->require_subcommand(1);
  for (const char* verb : {"create", "list", "describe", "delete"}) {
    auto flags = std::make_shared<TopicFlags>();
    std::string name = verb;
    CLI::App* app = registry.Add(*topic, verb, fmt::format("{} topics", verb), "topic",
                                 [flags, name] { return RunTopic(name, *flags); });
    app->add_option("--brokers", flags->brokers, "Bootstrap HOST:PORT")->capture_default_str();
    if (name != "list") app->add_option("topic", flags->topic, "Topic name")->required();
    if (name == "create") {
      app->add_option("--partitions", flags->partitions, "Partition count")->capture_default_str();
      app->add_option("--config", flags->configs, "Topic config KEY=VALUE (repeatable), e.g. retention.ms=3600000");
    }
  }
}

}  // namespace floe::cli

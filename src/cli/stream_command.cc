// `floe stream`: the micro-batch job from a Kafka topic into an Iceberg table (src/stream).
#include "cli/command.h"

namespace floe::cli {

void RegisterStreamCommand(CLI::App& root, CommandRegistry& registry) {
  struct Flags {
    std::string brokers, topic, table, catalog, warehouse, schema, trigger = "1s", timestamp_unit = "ms",
                                                                   transform, group;
    std::vector<std::string> partition;
    int64_t max_batch_records = 1'000'000;
  };
  auto flags = std::make_shared<Flags>();
  CLI::App* app = registry.Add(root, "stream", "Run the stream job: Kafka topic -> Iceberg table, exactly once",
                               "stream", [] { return NotBuiltYet("stream", "the stream job", 8); });
  app->add_option("--brokers", flags->brokers, "Bootstrap HOST:PORT of the Kafka cluster")->required();
  app->add_option("--topic", flags->topic, "Topic to consume")->required();
  app->add_option("--table", flags->table, "Target table NS.NAME")->required();
  app->add_option("--catalog", flags->catalog, "sqlite:PATH, postgresql://... or http(s)://host:port");
  app->add_option("--warehouse", flags->warehouse, "file:///abs/path or s3://bucket/prefix");
  app->add_option("--schema", flags->schema, "Iceberg schema JSON for creating the table");
  app->add_option("--partition", flags->partition, "Partition field, e.g. 'hour(ts)' (repeatable)");
  app->add_option("--trigger", flags->trigger, "Micro-batch interval")->capture_default_str();
  app->add_option("--max-batch-records", flags->max_batch_records, "Close a batch at this many records")
      ->capture_default_str();
  app->add_option("--timestamp-unit", flags->timestamp_unit, "Unit of numeric timestamps: ms, us or ns")
      ->check(CLI::IsMember({"ms", "us", "ns"}))
      ->capture_default_str();
  app->add_option("--transform", flags->transform, "SELECT ... FROM events WHERE ... applied to each batch");
  app->add_option("--group", flags->group, "Consumer group id (default: floe-stream-<table>)");
}

}  // namespace floe::cli

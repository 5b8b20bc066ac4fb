// The `floe` binary: every role and tool of the lakehouse as a subcommand.
#include <cstdio>
#include <set>
#include <string>

#include <CLI/CLI.hpp>
#include <fmt/format.h>

#include "base/allocator.h"
#include "base/config.h"
#include "base/crc32c.h"
#include "base/logging.h"
#include "cli/command.h"
#include "up/storage_faults.h"

int main(int argc, char** argv) {
  using namespace floe;
  CLI::App app("floe: an open streaming lakehouse (Kafka protocol broker, stream job, Iceberg tables, "
               "REST catalog, SQL engine) in one binary.",
               "floe");
  app.set_version_flag("--version", fmt::format("floe {} (crc32c: {})", FLOE_VERSION,
                                                crc32c::HardwareAccelerated() ? "sse4.2" : "portable"));
  app.require_subcommand(0, 1);
  app.fallthrough();

  std::string config_path = "floe.toml";
  bool config_given = false;
  LogOptions log_options;
  std::string log_format = "text";
  app.add_option_function<std::string>(
         "--config", [&](const std::string& path) { config_path = path, config_given = true; },
         "Configuration file (TOML); flags override FLOE_* environment variables, which override it")
      ->envname("FLOE_CONFIG");
  app.add_option("--log-level", log_options.level, "trace, debug, info, warn, error, critical or off")
      ->envname("FLOE_LOG_LEVEL")
      ->capture_default_str();
  app.add_option("--log-format", log_format, "text or json")
      ->envname("FLOE_LOG_FORMAT")
      ->check(CLI::IsMember({"text", "json"}))
      ->capture_default_str();

  // Process-wide, so `floe up --processes` passes it to every role through the environment.
  std::string storage_faults;
  app.add_option("--storage-faults", storage_faults,
                 "Inject object-store faults for chaos testing, e.g. '{\"error_rate\":0.02,\"latency_ms\":5,"
                 "\"short_write_rate\":0.01}'")
      ->envname("FLOE_STORAGE_FAULTS");

  cli::CommandRegistry registry;
  cli::RegisterUpCommand(app, registry);
  cli::RegisterBrokerCommand(app, registry);
  cli::RegisterCatalogCommand(app, registry);
  cli::RegisterStreamCommand(app, registry);
  cli::RegisterQueryCommand(app, registry);
  cli::RegisterSqlCommand(app, registry);
  cli::RegisterProduceCommand(app, registry);
  cli::RegisterTableCommand(app, registry);
  cli::RegisterParquetCommand(app, registry);
  cli::RegisterAvroCommand(app, registry);
  cli::RegisterTopicCommand(app, registry);
  cli::RegisterUserCommand(app, registry);
  cli::RegisterRegistryCommand(app, registry);

  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    return app.exit(e) == 0 ? cli::kExitOk : cli::kExitUsage;
  }
  // Before any thread starts. Servers and the stream job allocate on many threads and run for
  // long; every other command does its work on the main thread and exits, where a second
  // start-up would cost more than huge pages for the other threads give.
  const bool server = !app.get_subcommands().empty() &&
                      std::set<std::string>{"up", "broker", "catalog", "stream", "query"}.contains(app.get_subcommands()[0]->get_name());
  ConfigureAllocatorForBatches(argv, server ? HugePages::kEveryThread : HugePages::kMainThread);

  log_options.format = log_format == "json" ? LogFormat::kJson : LogFormat::kText;
  if (auto status = InitLogging(log_options); !status) {
    fmt::print(stderr, "floe: {}\n", status.error().ToString());
    return cli::kExitUsage;
  }
  if (!storage_faults.empty()) {
    auto plan = up::StorageFaultPlanFromJson(nlohmann::json::parse(storage_faults, nullptr, false));
    if (!plan) {
      fmt::print(stderr, "floe: --storage-faults: {}\n", plan.error().ToString());
      return cli::kExitUsage;
    }
    static auto faults = std::make_shared<up::StorageFaults>();
    faults->Install();
    faults->Set(*plan);
  }
  auto config = Config::Load(config_path, config_given);
  if (!config) {
    fmt::print(stderr, "floe: {}\n", config.error().ToString());
    return cli::kExitUsage;
  }
  return registry.RunSelected(app, *config);
}

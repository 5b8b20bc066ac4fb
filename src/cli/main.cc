// The `floe` binary: every role and tool of the lakehouse as a subcommand.
#include <cstdio>

#include <CLI/CLI.hpp>
#include <fmt/format.h>

#include "base/config.h"
#include "base/crc32c.h"
#include "base/logging.h"
#include "cli/command.h"

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

  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    return app.exit(e) == 0 ? cli::kExitOk : cli::kExitUsage;
  }

  log_options.format = log_format == "json" ? LogFormat::kJson : LogFormat::kText;
  if (auto status = InitLogging(log_options); !status) {
    fmt::print(stderr, "floe: {}\n", status.error().ToString());
    return cli::kExitUsage;
  }
  auto config = Config::Load(config_path, config_given);
  if (!config) {
    fmt::print(stderr, "floe: {}\n", config.error().ToString());
    return cli::kExitUsage;
  }
  return registry.RunSelected(app, *config);
}

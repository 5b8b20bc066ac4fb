// `floe up`: the whole pipeline in one process (or one child process per role).
#include <fmt/format.h>

#include "cli/command.h"

namespace floe::cli {
namespace {

// A role `floe up` starts, and the issue that builds it while it is missing.
struct Role {
  const char* name;
  const char* listens;
  bool built;
  int issue;
};

constexpr Role kRoles[] = {
    {"broker", "Kafka protocol on 127.0.0.1:9092", false, 7},
    {"catalog", "Iceberg REST on 127.0.0.1:8181", false, 6},
    {"stream job", "topic orders -> table shop.orders", false, 8},
    {"query server", "Trino/HTTP/console on 127.0.0.1:8080, PostgreSQL wire on 127.0.0.1:5433", false, 10},
    {"generator", "order events into topic orders", false, 11},
};

}  // namespace

void RegisterUpCommand(CLI::App& root, CommandRegistry& registry) {
  struct Flags {
    std::string data = "./floe-data", traffic = "200", trigger = "10s";
    bool processes = false;
  };
  auto flags = std::make_shared<Flags>();
  CLI::App* app = registry.Add(root, "up", "Start the whole pipeline: broker, catalog, stream job, query server, "
                               "console and the order-events generator", "up", [flags] {
    int missing = 0;
    fmt::print("floe up: data under {}\n", flags->data);
    for (const Role& role : kRoles) {
      fmt::print("  {:<13} {:<75} {}\n", role.name, role.listens,
                 role.built ? "ready" : fmt::format("not built yet (issue #{})", role.issue));
      missing += role.built ? 0 : 1;
    }
    if (missing > 0) {
      fmt::print(stderr, "floe up: {} of {} roles are not built yet; nothing was started.\n", missing,
                 std::size(kRoles));
      return kExitNotBuilt;
    }
    return kExitOk;
  });
  app->add_option("--data", flags->data, "Folder for the broker log, catalog and warehouse")->capture_default_str();
  app->add_option("--traffic", flags->traffic, "Generator rate in events per second, or 'off'")->capture_default_str();
  app->add_option("--trigger", flags->trigger, "Stream job micro-batch interval")->capture_default_str();
  app->add_flag("--processes", flags->processes, "Run each role as its own supervised child process");
}

}  // namespace floe::cli

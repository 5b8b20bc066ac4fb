// The `floe` binary's subcommands: each file in src/cli registers one with a CommandRegistry.
//
// A subcommand declares its flags on a CLI11 App and gives a function that runs it and returns
// the process exit code. After parsing, the registry fills every flag the user did not give
// from the environment (FLOE_<SUBCOMMAND>_<FLAG>) or floe.toml (`[subcommand] flag = ...`), so
// the precedence flags > environment > file > default holds for every subcommand alike.
// Single-threaded: used only by main().
#pragma once

#include <functional>
#include <map>
#include <string>
#include <string_view>

#include <CLI/CLI.hpp>

#include "base/config.h"
#include "base/result.h"

namespace floe::cli {

// Exit codes shared by every subcommand.
inline constexpr int kExitOk = 0;
inline constexpr int kExitFailure = 1;      // The command ran and failed (I/O, corrupt input, ...).
inline constexpr int kExitUsage = 2;        // Bad flags or arguments.
inline constexpr int kExitNotBuilt = 3;     // The subcommand's role has not landed yet.

class CommandRegistry {
 public:
  using RunFunction = std::function<int()>;

  // Adds subcommand `name` under `parent`; `section` names its config section (the top-level
  // subcommand's name, also for nested ones such as `table create`).
  CLI::App* Add(CLI::App& parent, const std::string& name, const std::string& description,
                const std::string& section, RunFunction run);

  // Runs the subcommand the user selected after applying `config` to its unset flags.
  // Returns kExitUsage when none was selected.
  int RunSelected(CLI::App& root, const Config& config);

 private:
  struct Entry {
    std::string section;
    RunFunction run;
  };
  std::map<const CLI::App*, Entry> entries_;
};

// The exit code of a command that failed with `error`: kExitUsage for bad arguments, else
// kExitFailure.
int ExitCodeFor(const Error& error);

// Prints "floe NAME: not built yet: WHAT lands with issue #N." and returns kExitNotBuilt.
int NotBuiltYet(std::string_view name, std::string_view what, int issue);

// A listener on a non-loopback `host` without users lets anyone on the network do anything:
// InvalidArgument naming `flag` unless `insecure` (--insecure-bind), which logs a warning instead.
Status CheckExposedBind(std::string_view flag, std::string_view host, bool has_users, bool insecure);

// Registration functions, one per file.
void RegisterUpCommand(CLI::App& root, CommandRegistry& registry);
void RegisterBrokerCommand(CLI::App& root, CommandRegistry& registry);
void RegisterCatalogCommand(CLI::App& root, CommandRegistry& registry);
void RegisterStreamCommand(CLI::App& root, CommandRegistry& registry);
void RegisterQueryCommand(CLI::App& root, CommandRegistry& registry);
void RegisterSqlCommand(CLI::App& root, CommandRegistry& registry);
void RegisterProduceCommand(CLI::App& root, CommandRegistry& registry);
void RegisterTableCommand(CLI::App& root, CommandRegistry& registry);
void RegisterParquetCommand(CLI::App& root, CommandRegistry& registry);
void RegisterAvroCommand(CLI::App& root, CommandRegistry& registry);
void RegisterTopicCommand(CLI::App& root, CommandRegistry& registry);
void RegisterUserCommand(CLI::App& root, CommandRegistry& registry);
void RegisterRegistryCommand(CLI::App& root, CommandRegistry& registry);

}  // namespace floe::cli

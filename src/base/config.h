// Layered configuration: command-line flags > FLOE_* environment > floe.toml > built-in default.
//
// Keys are "section.name" (section = the subcommand, e.g. "broker.listen"). A key is looked up
// as FLOE_BROKER_LISTEN, then FLOE_LISTEN in the environment, then `[broker] listen`, then a
// top-level `listen` in the TOML file. Flags are applied on top by the CLI (src/cli). A Config
// is immutable after Load and safe to read from any thread.
#pragma once

#include <map>
#include <optional>
#include <string>
#include <string_view>

#include "base/result.h"

namespace floe {

class Config {
 public:
  // Reads `toml_path` when non-empty. A missing file is an error only when `required`.
  static Result<Config> Load(const std::string& toml_path, bool required);
  // Parses TOML text directly (tests, embedded defaults).
  static Result<Config> FromTomlText(std::string_view text, std::string_view source_name);

  // The value of section.name from the environment or the file, as text.
  std::optional<std::string> Get(std::string_view section, std::string_view name) const;

  // The environment variable that would set section.name: FLOE_BROKER_LISTEN.
  static std::string EnvironmentName(std::string_view section, std::string_view name);

 private:
  std::map<std::string, std::string, std::less<>> file_values_;  // "section.name" or "name" → text.
};

}  // namespace floe

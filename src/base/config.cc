#include "base/config.h"

#include <cctype>
#include <cstdlib>
#include <fstream>
#include <sstream>

#include <toml++/toml.h>

namespace floe {
namespace {

// Renders a TOML leaf as the text a flag would carry.
std::optional<std::string> LeafText(const toml::node& node) {
  if (auto s = node.value<std::string>()) return *s;
  if (auto b = node.value_exact<bool>()) return *b ? "true" : "false";
  if (auto i = node.value_exact<int64_t>()) return std::to_string(*i);
  if (auto d = node.value_exact<double>()) return fmt::format("{}", *d);
  return std::nullopt;
}

void Flatten(const toml::table& table, const std::string& prefix, std::map<std::string, std::string, std::less<>>* out) {
  for (const auto& [key, node] : table) {
    std::string name = prefix.empty() ? std::string(key.str()) : prefix + "." + std::string(key.str());
    if (const auto* sub = node.as_table()) {
      Flatten(*sub, name, out);
    } else if (auto text = LeafText(node)) {
      (*out)[name] = *text;
    }
  }
}

}  // namespace

Result<Config> Config::FromTomlText(std::string_view text, std::string_view source_name) {
  Config config;
  // toml++ reports syntax errors by exception; convert them here, at the library boundary.
  try {
    toml::table table = toml::parse(text, std::string(source_name));
    Flatten(table, "", &config.file_values_);
  } catch (const toml::parse_error& err) {
    return InvalidArgument("{}:{}:{}: {}", source_name, err.source().begin.line, err.source().begin.column,
                           err.description());
  }
  return config;
}

Result<Config> Config::Load(const std::string& toml_path, bool required) {
  if (toml_path.empty()) return Config();
  std::ifstream in(toml_path);
  if (!in) {
    if (required) return NotFound("config file {} cannot be opened", toml_path);
    return Config();
  }
  std::stringstream buffer;
  buffer << in.rdbuf();
  return FromTomlText(buffer.str(), toml_path);
}

std::string Config::EnvironmentName(std::string_view section, std::string_view name) {
  std::string env = "FLOE_";
  auto append = [&env](std::string_view part) {
    for (char c : part) env += (c == '-' || c == '.') ? '_' : static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
  };
  if (!section.empty()) {
    append(section);
    env += '_';
  }
  append(name);
  return env;
}

std::optional<std::string> Config::Get(std::string_view section, std::string_view name) const {
  for (auto env_name : {EnvironmentName(section, name), EnvironmentName("", name)}) {
    if (const char* value = std::getenv(env_name.c_str())) return std::string(value);
  }
  std::string dashed(name);
  std::string underscored(name);
  for (char& c : underscored) c = (c == '-') ? '_' : c;
  for (const auto& key : {fmt::format("{}.{}", section, dashed), fmt::format("{}.{}", section, underscored), dashed,
                          underscored}) {
    if (auto it = file_values_.find(key); it != file_values_.end()) return it->second;
  }
  return std::nullopt;
}

}  // namespace floe

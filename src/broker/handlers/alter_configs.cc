// AlterConfigs (key 33), v0-1: replaces a topic's whole set of overrides (a name left out
// returns to the broker default; a null value is left out), as kafka-configs --alter did
// before KIP-339 and kafkajs's admin.alterConfigs does. Needs `alter` on the topic.
#include <set>

#include "broker/handlers/topic_config_change.h"

namespace floe::broker {

Status HandleAlterConfigs(RequestContext& ctx, WireReader& in, WireWriter& out) {
  struct Resource {
    int8_t type = 0;
    std::string name;
    ConfigOverrides configs;
    std::optional<std::string> duplicate;
  };
  std::vector<Resource> resources;
  FLOE_ASSIGN_OR_RETURN(int32_t count, in.ArrayLength("resources", 4));
  for (int32_t i = 0; i < count; ++i) {
    Resource r;
    FLOE_ASSIGN_OR_RETURN(r.type, in.Int8("resource_type"));
    FLOE_ASSIGN_OR_RETURN(std::string_view name, in.String("resource_name"));
    r.name = std::string(name);
    FLOE_ASSIGN_OR_RETURN(int32_t configs, in.ArrayLength("configs", 3));
    std::set<std::string, std::less<>> seen;
    for (int32_t c = 0; c < configs; ++c) {
      FLOE_ASSIGN_OR_RETURN(std::string_view key, in.String("config name"));
      FLOE_ASSIGN_OR_RETURN(auto value, in.NullableString("config value"));
      if (!seen.emplace(key).second) r.duplicate = std::string(key);
      if (value) r.configs[std::string(key)] = std::string(*value);
    }
    resources.push_back(std::move(r));
  }
  FLOE_ASSIGN_OR_RETURN(bool validate_only, in.Bool("validate_only"));

  out.Int32(0);  // throttle_time_ms
  out.ArrayLength(resources.size());
  for (const Resource& r : resources) {
    ConfigChangeAnswer answer;
    if (r.duplicate) {
      answer = {ErrorCode::kInvalidRequest, fmt::format("config '{}' is given twice", *r.duplicate)};
    } else {
      answer = ChangeTopicConfigs(
          ctx, r.type, r.name, [&](const ConfigOverrides&) -> Result<ConfigOverrides> { return r.configs; },
          validate_only);
    }
    WriteConfigChangeAnswer(out, answer, r.type, r.name);
  }
  return OkStatus();
}

}  // namespace floe::broker

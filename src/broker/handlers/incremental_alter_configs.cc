// IncrementalAlterConfigs (key 44), v0-1 (v1 flexible; KIP-339): changes named topic configs
// and leaves the others: SET (0) a value, DELETE (1) an override (back to the default), APPEND
// (2) and SUBTRACT (3) items of a list config (cleanup.policy, the only one here). Needs
// `alter` on the topic; a bad name or value is INVALID_CONFIG and changes nothing.
#include <algorithm>
#include <set>

#include "broker/handlers/topic_config_change.h"

namespace floe::broker {
namespace {

enum class ConfigOperation : int8_t { kSet = 0, kDelete = 1, kAppend = 2, kSubtract = 3 };

struct Change {
  std::string name;
  ConfigOperation operation = ConfigOperation::kSet;
  std::optional<std::string> value;
};

std::vector<std::string> SplitList(std::string_view text) {
  std::vector<std::string> items;
  while (!text.empty()) {
    size_t comma = text.find(',');
    std::string_view item = text.substr(0, comma);
    while (!item.empty() && item.front() == ' ') item.remove_prefix(1);
    while (!item.empty() && item.back() == ' ') item.remove_suffix(1);
    if (!item.empty()) items.emplace_back(item);
    if (comma == std::string_view::npos) break;
    text.remove_prefix(comma + 1);
  }
  return items;
}

Result<ConfigOverrides> Apply(const ConfigOverrides& current, const std::vector<Change>& changes,
                              const LogConfig& defaults) {
  ConfigOverrides next = current;
  for (const Change& c : changes) {
    switch (c.operation) {
      case ConfigOperation::kSet:
        if (!c.value) return InvalidArgument("config {}: SET without a value", c.name);
        next[c.name] = *c.value;
        break;
      case ConfigOperation::kDelete:
        next.erase(c.name);
        break;
      case ConfigOperation::kAppend:
      case ConfigOperation::kSubtract: {
        if (c.name != "cleanup.policy")
          return InvalidArgument("config {} is not a list: APPEND and SUBTRACT do not apply", c.name);
        auto it = next.find(c.name);
        std::vector<std::string> items = SplitList(it != next.end() ? it->second : defaults.ToMap().at(c.name));
        for (const std::string& item : SplitList(c.value.value_or(""))) {
          auto found = std::find(items.begin(), items.end(), item);
          if (c.operation == ConfigOperation::kAppend && found == items.end()) items.push_back(item);
          if (c.operation == ConfigOperation::kSubtract && found != items.end()) items.erase(found);
        }
        std::string joined;
        for (const std::string& item : items) joined += (joined.empty() ? "" : ",") + item;
        next[c.name] = joined;
        break;
      }
    }
  }
  return next;
}

}  // namespace

Status HandleIncrementalAlterConfigs(RequestContext& ctx, WireReader& in, WireWriter& out) {
  struct Resource {
    int8_t type = 0;
    std::string name;
    std::vector<Change> changes;
    std::optional<std::string> problem;
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
      Change change;
      FLOE_ASSIGN_OR_RETURN(std::string_view key, in.String("config name"));
      change.name = std::string(key);
      FLOE_ASSIGN_OR_RETURN(int8_t operation, in.Int8("config_operation"));
      FLOE_ASSIGN_OR_RETURN(auto value, in.NullableString("config value"));
      FLOE_RETURN_IF_ERROR(in.SkipTaggedFields("AlterableConfig"));
      if (value) change.value = std::string(*value);
      if (operation < 0 || operation > 3) {
        r.problem = fmt::format("config {}: operation {} (0 set, 1 delete, 2 append, 3 subtract)", key, operation);
      } else if (!seen.emplace(key).second) {
        r.problem = fmt::format("config '{}' is given twice", key);
      }
      change.operation = static_cast<ConfigOperation>(operation);
      r.changes.push_back(std::move(change));
    }
    FLOE_RETURN_IF_ERROR(in.SkipTaggedFields("AlterConfigsResource"));
    resources.push_back(std::move(r));
  }
  FLOE_ASSIGN_OR_RETURN(bool validate_only, in.Bool("validate_only"));
  FLOE_RETURN_IF_ERROR(in.SkipTaggedFields("IncrementalAlterConfigs request"));

  out.Int32(0);  // throttle_time_ms
  out.ArrayLength(resources.size());
  const LogConfig& defaults = ctx.broker.topics().defaults();
  for (const Resource& r : resources) {
    ConfigChangeAnswer answer;
    if (r.problem) {
      answer = {ErrorCode::kInvalidRequest, *r.problem};
    } else {
      answer = ChangeTopicConfigs(
          ctx, r.type, r.name, [&](const ConfigOverrides& current) { return Apply(current, r.changes, defaults); },
          validate_only);
    }
    WriteConfigChangeAnswer(out, answer, r.type, r.name);
  }
  out.TaggedFields();
  return OkStatus();
}

}  // namespace floe::broker

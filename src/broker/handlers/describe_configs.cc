// DescribeConfigs (key 32), v0-3: topic configs (defaults and overrides) and a few broker
// settings, enough for admin clients that inspect a topic before using it.
#include "broker/handlers/handler.h"

namespace floe::broker {
namespace {

constexpr int8_t kResourceTopic = 2;
constexpr int8_t kResourceBroker = 4;
constexpr int8_t kSourceTopic = 1;
constexpr int8_t kSourceStaticBroker = 4;
constexpr int8_t kSourceDefault = 5;
constexpr int8_t kTypeLong = 5;

struct ConfigEntry {
  std::string name;
  std::string value;
  bool is_default;
  int8_t source;
};

}  // namespace

Status HandleDescribeConfigs(RequestContext& ctx, WireReader& in, WireWriter& out) {
  const int16_t v = ctx.version();
  struct Resource {
    int8_t type;
    std::string name;
    std::optional<std::vector<std::string>> keys;
  };
  std::vector<Resource> resources;
  FLOE_ASSIGN_OR_RETURN(int32_t count, in.ArrayLength("resources", 7));
  for (int32_t i = 0; i < count; ++i) {
    Resource r;
    FLOE_ASSIGN_OR_RETURN(r.type, in.Int8("resource_type"));
    FLOE_ASSIGN_OR_RETURN(std::string_view name, in.String("resource_name"));
    r.name = std::string(name);
    FLOE_ASSIGN_OR_RETURN(int32_t keys, in.ArrayLength("configuration_keys", 2));
    if (keys >= 0) r.keys.emplace();
    for (int32_t k = 0; k < keys; ++k) {
      FLOE_ASSIGN_OR_RETURN(std::string_view key, in.String("configuration key"));
      r.keys->emplace_back(key);
    }
    resources.push_back(std::move(r));
  }
  if (v >= 1) FLOE_RETURN_IF_ERROR(in.Bool("include_synonyms"));
  if (v >= 3) FLOE_RETURN_IF_ERROR(in.Bool("include_documentation"));

  out.Int32(0);
  out.ArrayLength(resources.size());
  for (const Resource& r : resources) {
    ErrorCode error = ErrorCode::kNone;
    std::vector<ConfigEntry> entries;
    if (r.type == kResourceTopic) {
      Topic* topic = ctx.broker.topics().Find(r.name);
      if (!ctx.MayDescribeTopic(r.name)) {
        error = ErrorCode::kTopicAuthorizationFailed;
      } else if (!topic) {
        error = ErrorCode::kUnknownTopicOrPartition;
      } else {
        for (const auto& [name, value] : topic->config.ToMap()) {
          bool overridden = topic->overrides.count(name) > 0;
          entries.push_back({name, value, !overridden, overridden ? kSourceTopic : kSourceDefault});
        }
      }
    } else if (r.type == kResourceBroker) {
      const BrokerConfig& c = ctx.broker.config();
      entries = {
          {"num.partitions", std::to_string(c.default_partitions), false, kSourceStaticBroker},
          {"auto.create.topics.enable", c.auto_create_topics ? "true" : "false", false, kSourceStaticBroker},
          {"message.max.bytes", std::to_string(c.log.max_message_bytes), false, kSourceStaticBroker},
          {"socket.request.max.bytes", std::to_string(c.max_request_bytes), false, kSourceStaticBroker},
          {"log.retention.ms", std::to_string(c.log.retention_ms), false, kSourceStaticBroker},
          {"default.replication.factor", "1", true, kSourceDefault},
      };
    } else {
      error = ErrorCode::kInvalidRequest;
    }
    if (r.keys) {
      std::erase_if(entries, [&](const ConfigEntry& e) {
        return std::find(r.keys->begin(), r.keys->end(), e.name) == r.keys->end();
      });
    }
    out.Int16(Wire(error));
    out.NullableString(error == ErrorCode::kNone ? std::nullopt : std::optional<std::string_view>("cannot describe"));
    out.Int8(r.type);
    out.String(r.name);
    out.ArrayLength(entries.size());
    for (const ConfigEntry& e : entries) {
      out.String(e.name);
      out.NullableString(e.value);
      out.Bool(false);  // read_only
      if (v == 0) out.Bool(e.is_default);
      if (v >= 1) out.Int8(e.source);
      out.Bool(false);  // is_sensitive
      if (v >= 1) out.ArrayLength(0);  // synonyms
      if (v >= 3) {
        out.Int8(kTypeLong);
        out.NullableString(std::nullopt);
      }
    }
  }
  return OkStatus();
}

}  // namespace floe::broker

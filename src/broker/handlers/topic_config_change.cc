#include "broker/handlers/topic_config_change.h"

namespace floe::broker {

ConfigChangeAnswer ChangeTopicConfigs(
    RequestContext& ctx, int8_t resource_type, const std::string& name,
    const std::function<Result<ConfigOverrides>(const ConfigOverrides& current)>& next, bool validate_only) {
  if (resource_type == kConfigResourceBroker) {
    return {ErrorCode::kInvalidRequest,
            "floe's broker settings are static (command-line flags): only topic configs change"};
  }
  if (resource_type != kConfigResourceTopic) {
    return {ErrorCode::kInvalidRequest, fmt::format("resource type {} has no configs here (2: topic)", resource_type)};
  }
  // Checked before existence, so a user cannot learn which topics exist.
  if (!ctx.AllowsTopic(name, auth::Operation::kAlter)) {
    return {ErrorCode::kTopicAuthorizationFailed,
            fmt::format("user '{}' may not alter topic '{}' (role admin, or a grant of alter)", ctx.sasl.user, name)};
  }
  Topic* topic = ctx.broker.topics().Find(name);
  if (!topic) return {ErrorCode::kUnknownTopicOrPartition, fmt::format("topic '{}' does not exist", name)};
  Result<ConfigOverrides> overrides = next(topic->overrides);
  if (!overrides) return {ErrorCode::kInvalidConfig, overrides.error().message()};
  LogConfig check = ctx.broker.topics().defaults();
  if (auto valid = check.Apply(*overrides); !valid) return {ErrorCode::kInvalidConfig, valid.error().message()};
  if (validate_only) return {};
  if (auto replaced = ctx.broker.topics().ReplaceConfigs(name, *overrides); !replaced) {
    return {replaced.error().kind() == ErrorKind::kInvalidArgument ? ErrorCode::kInvalidConfig
                                                                   : ErrorCode::kKafkaStorageError,
            replaced.error().message()};
  }
  return {};
}

void WriteConfigChangeAnswer(WireWriter& out, const ConfigChangeAnswer& answer, int8_t resource_type,
                             std::string_view name) {
  out.Int16(Wire(answer.error));
  out.NullableString(answer.message);
  out.Int8(resource_type);
  out.String(name);
  out.TaggedFields();
}

}  // namespace floe::broker

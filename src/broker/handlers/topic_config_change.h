// The part AlterConfigs (33) and IncrementalAlterConfigs (44) share: one resource's change,
// checked (resource type, `alter` on the topic, existence, every value valid) and applied
// through TopicRegistry::ReplaceConfigs, answered with Kafka's error codes.
#pragma once

#include <functional>
#include <map>
#include <optional>
#include <string>

#include "broker/handlers/handler.h"

namespace floe::broker {

inline constexpr int8_t kConfigResourceTopic = 2;
inline constexpr int8_t kConfigResourceBroker = 4;

struct ConfigChangeAnswer {
  ErrorCode error = ErrorCode::kNone;
  std::optional<std::string> message;
};

// `next` computes the topic's new overrides from its current ones (or an INVALID_CONFIG answer
// with its message). With `validate_only` nothing is applied.
using ConfigOverrides = std::map<std::string, std::string>;
ConfigChangeAnswer ChangeTopicConfigs(
    RequestContext& ctx, int8_t resource_type, const std::string& name,
    const std::function<Result<ConfigOverrides>(const ConfigOverrides& current)>& next, bool validate_only);

// Writes one resource's entry of either response.
void WriteConfigChangeAnswer(WireWriter& out, const ConfigChangeAnswer& answer, int8_t resource_type,
                             std::string_view name);

}  // namespace floe::broker

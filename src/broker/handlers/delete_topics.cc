// DeleteTopics (key 20), v0-3: removes topics, their logs and their committed offsets.
#include "broker/handlers/handler.h"

namespace floe::broker {

Status HandleDeleteTopics(RequestContext& ctx, WireReader& in, WireWriter& out) {
  const int16_t v = ctx.version();
  FLOE_ASSIGN_OR_RETURN(int32_t count, in.ArrayLength("topic_names", 2));
  std::vector<std::string> names;
  for (int32_t i = 0; i < count; ++i) {
    FLOE_ASSIGN_OR_RETURN(std::string_view name, in.String("topic name"));
    names.emplace_back(name);
  }
  FLOE_RETURN_IF_ERROR(in.Int32("timeout_ms"));
  if (v >= 1) out.Int32(0);
  out.ArrayLength(names.size());
  for (const std::string& name : names) {
    ErrorCode error = ErrorCode::kNone;
    if (!ctx.AllowsTopic(name, auth::Operation::kDelete)) {
      // An admin's, or a grant's; checked before existence so names do not leak.
      error = ErrorCode::kTopicAuthorizationFailed;
    } else if (!ctx.broker.topics().Find(name)) {
      error = ErrorCode::kUnknownTopicOrPartition;
    } else if (!ctx.broker.topics().Delete(name) || !ctx.broker.groups().offsets().RemoveTopic(name)) {
      error = ErrorCode::kUnknownServerError;
    }
    out.String(name);
    out.Int16(Wire(error));
  }
  return OkStatus();
}

}  // namespace floe::broker

// DeleteGroups (key 42), v0-1: forgets consumer groups that have no members, with their
// committed offsets (kafka-consumer-groups --delete, kafkajs admin.deleteGroups).
#include "broker/handlers/handler.h"

namespace floe::broker {

Status HandleDeleteGroups(RequestContext& ctx, WireReader& in, WireWriter& out) {
  FLOE_ASSIGN_OR_RETURN(int32_t count, in.ArrayLength("groups_names", 2));
  std::vector<std::string> groups;
  for (int32_t i = 0; i < count; ++i) {
    FLOE_ASSIGN_OR_RETURN(std::string_view group, in.String("group id"));
    groups.emplace_back(group);
  }
  out.Int32(0);  // throttle_time_ms
  out.ArrayLength(groups.size());
  for (const std::string& group : groups) {
    // Checked before existence, so a user cannot learn which groups exist.
    ErrorCode error = ctx.AllowsGroup(group, auth::Operation::kDelete) ? ctx.broker.groups().DeleteGroup(group)
                                                                        : ErrorCode::kGroupAuthorizationFailed;
    out.String(group);
    out.Int16(Wire(error));
  }
  return OkStatus();
}

}  // namespace floe::broker

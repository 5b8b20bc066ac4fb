// Heartbeat (key 12), v0-3: keeps a member's session alive and tells it about rebalances. Only in
// a group the user may read (GROUP_AUTHORIZATION_FAILED otherwise).
#include "broker/handlers/handler.h"

namespace floe::broker {

Status HandleHeartbeat(RequestContext& ctx, WireReader& in, WireWriter& out) {
  const int16_t v = ctx.version();
  FLOE_ASSIGN_OR_RETURN(std::string_view group_id, in.String("group_id"));
  FLOE_ASSIGN_OR_RETURN(int32_t generation, in.Int32("generation_id"));
  FLOE_ASSIGN_OR_RETURN(std::string_view member_id, in.String("member_id"));
  if (v >= 3) FLOE_RETURN_IF_ERROR(in.NullableString("group_instance_id"));
  ErrorCode error = ctx.AllowsGroup(group_id, auth::Operation::kRead)
                        ? ctx.broker.groups().Heartbeat(std::string(group_id), generation, std::string(member_id))
                        : ErrorCode::kGroupAuthorizationFailed;
  if (v >= 1) out.Int32(0);
  out.Int16(Wire(error));
  return OkStatus();
}

}  // namespace floe::broker

// LeaveGroup (key 13), v0-3: one member (v0-2) or a batch of members (v3) leave at once. Only
// from a group the user may read (GROUP_AUTHORIZATION_FAILED otherwise): a stranger cannot
// force another's group to rebalance.
#include "broker/handlers/handler.h"

namespace floe::broker {

Status HandleLeaveGroup(RequestContext& ctx, WireReader& in, WireWriter& out) {
  const int16_t v = ctx.version();
  FLOE_ASSIGN_OR_RETURN(std::string_view group_id_view, in.String("group_id"));
  std::string group_id(group_id_view);
  GroupCoordinator& groups = ctx.broker.groups();
  const bool allowed = ctx.AllowsGroup(group_id, auth::Operation::kRead);
  if (v <= 2) {
    FLOE_ASSIGN_OR_RETURN(std::string_view member_id, in.String("member_id"));
    ErrorCode error = allowed ? groups.Leave(group_id, std::string(member_id)) : ErrorCode::kGroupAuthorizationFailed;
    if (v >= 1) out.Int32(0);
    out.Int16(Wire(error));
    return OkStatus();
  }
  FLOE_ASSIGN_OR_RETURN(int32_t count, in.ArrayLength("members", 4));
  struct Left {
    std::string member_id;
    std::optional<std::string> instance_id;
    ErrorCode error;
  };
  std::vector<Left> left;
  for (int32_t i = 0; i < count; ++i) {
    FLOE_ASSIGN_OR_RETURN(std::string_view member_id, in.String("member_id"));
    FLOE_ASSIGN_OR_RETURN(auto instance, in.NullableString("group_instance_id"));
    Left l{std::string(member_id), instance ? std::optional<std::string>(std::string(*instance)) : std::nullopt,
           ErrorCode::kNone};
    if (allowed) l.error = groups.Leave(group_id, l.member_id);
    left.push_back(std::move(l));
  }
  out.Int32(0);
  out.Int16(Wire(allowed ? ErrorCode::kNone : ErrorCode::kGroupAuthorizationFailed));
  out.ArrayLength(left.size());
  for (const Left& l : left) {
    out.String(l.member_id);
    out.NullableString(l.instance_id);
    out.Int16(Wire(allowed ? l.error : ErrorCode::kGroupAuthorizationFailed));
  }
  return OkStatus();
}

}  // namespace floe::broker

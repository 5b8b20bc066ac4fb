// DescribeGroups (key 15), v0-4: state, protocol and members of each named group; a group the
// user may not read is GROUP_AUTHORIZATION_FAILED and shows nothing.
#include "broker/handlers/handler.h"

namespace floe::broker {

Status HandleDescribeGroups(RequestContext& ctx, WireReader& in, WireWriter& out) {
  const int16_t v = ctx.version();
  FLOE_ASSIGN_OR_RETURN(int32_t count, in.ArrayLength("groups", 2));
  std::vector<std::string> ids;
  for (int32_t i = 0; i < count; ++i) {
    FLOE_ASSIGN_OR_RETURN(std::string_view id, in.String("group"));
    ids.emplace_back(id);
  }
  if (v >= 3) FLOE_RETURN_IF_ERROR(in.Bool("include_authorized_operations"));
  if (v >= 1) out.Int32(0);
  out.ArrayLength(ids.size());
  for (const std::string& id : ids) {
    GroupDescription d;
    if (ctx.AllowsGroup(id, auth::Operation::kRead)) {
      d = ctx.broker.groups().Describe(id);
    } else {
      d.error = ErrorCode::kGroupAuthorizationFailed;
      d.group_id = id;
    }
    out.Int16(Wire(d.error));
    out.String(d.group_id);
    out.String(d.state);
    out.String(d.protocol_type);
    out.String(d.protocol_name);
    out.ArrayLength(d.members.size());
    for (const GroupMemberDescription& m : d.members) {
      out.String(m.member_id);
      if (v >= 4) out.NullableString(m.group_instance_id);
      out.String(m.client_id);
      out.String(m.client_host);
      out.Bytes(m.metadata);
      out.Bytes(m.assignment);
    }
    if (v >= 3) out.Int32(INT32_MIN);
  }
  return OkStatus();
}

}  // namespace floe::broker

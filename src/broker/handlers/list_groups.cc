// ListGroups (key 16), v0-2: every group with members or committed offsets that the user may
// read (as Kafka lists the groups a user may describe).
#include "broker/handlers/handler.h"

namespace floe::broker {

Status HandleListGroups(RequestContext& ctx, WireReader& in, WireWriter& out) {
  const int16_t v = ctx.version();
  auto groups = ctx.broker.groups().ListGroups();
  if (v >= 1) out.Int32(0);
  out.Int16(Wire(ErrorCode::kNone));
  std::erase_if(groups, [&](const auto& group) { return !ctx.AllowsGroup(group.first, auth::Operation::kRead); });
  out.ArrayLength(groups.size());
  for (const auto& [id, protocol_type] : groups) {
    out.String(id);
    out.String(protocol_type);
  }
  return OkStatus();
}

}  // namespace floe::broker

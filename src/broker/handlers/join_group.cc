// JoinGroup (key 11), v0-5: enters the rebalance barrier and answers when it completes. A user
// may join only a group it may read (its own by name, or granted): GROUP_AUTHORIZATION_FAILED.
#include <memory>

#include "broker/handlers/handler.h"
#include "broker/server/wake_signal.h"

namespace floe::broker {

namespace {

Result<JoinRequest> Decode(RequestContext& ctx, WireReader& in) {
  const int16_t v = ctx.version();
  JoinRequest request;
  FLOE_ASSIGN_OR_RETURN(std::string_view group_id, in.String("group_id"));
  request.group_id = std::string(group_id);
  FLOE_ASSIGN_OR_RETURN(request.session_timeout_ms, in.Int32("session_timeout_ms"));
  request.rebalance_timeout_ms = request.session_timeout_ms;
  if (v >= 1) {
    FLOE_ASSIGN_OR_RETURN(request.rebalance_timeout_ms, in.Int32("rebalance_timeout_ms"));
  }
  FLOE_ASSIGN_OR_RETURN(std::string_view member_id, in.String("member_id"));
  request.member_id = std::string(member_id);
  if (v >= 5) {
    FLOE_ASSIGN_OR_RETURN(auto instance, in.NullableString("group_instance_id"));
    if (instance) request.group_instance_id = std::string(*instance);
  }
  FLOE_ASSIGN_OR_RETURN(std::string_view protocol_type, in.String("protocol_type"));
  request.protocol_type = std::string(protocol_type);
  FLOE_ASSIGN_OR_RETURN(int32_t count, in.ArrayLength("protocols", 6));
  for (int32_t i = 0; i < count; ++i) {
    FLOE_ASSIGN_OR_RETURN(std::string_view name, in.String("protocol name"));
    FLOE_ASSIGN_OR_RETURN(std::string_view metadata, in.Bytes("protocol metadata"));
    request.protocols.emplace_back(std::string(name), std::string(metadata));
  }
  request.client_id = ctx.header.client_id;
  request.client_host = ctx.client_host;
  return request;
}

}  // namespace

awaitable<Status> HandleJoinGroup(RequestContext& ctx, WireReader& in, WireWriter& out) {
  const int16_t v = ctx.version();
  auto request = Decode(ctx, in);
  if (!request) co_return std::unexpected(std::move(request).error());

  auto result = std::make_shared<JoinResult>();
  if (!ctx.AllowsGroup(request->group_id, auth::Operation::kRead)) {
    result->error = ErrorCode::kGroupAuthorizationFailed;
  } else {
    auto signal = std::make_shared<WakeSignal>(ctx.broker.executor());
    ctx.broker.groups().Join(*request, [signal, result](const JoinResult& r) {
      *result = r;
      signal->Notify();
    });
    co_await signal->Wait();
  }

  if (v >= 2) out.Int32(0);
  out.Int16(Wire(result->error));
  out.Int32(result->generation);
  out.String(result->protocol_name);
  out.String(result->leader);
  out.String(result->member_id);
  out.ArrayLength(result->members.size());
  for (const JoinMember& m : result->members) {
    out.String(m.member_id);
    if (v >= 5) out.NullableString(m.group_instance_id);
    out.Bytes(m.metadata);
  }
  co_return OkStatus();
}

}  // namespace floe::broker

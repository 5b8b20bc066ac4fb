// SyncGroup (key 14), v0-3: the leader hands in assignments; followers wait for them. Only in a
// group the user may read (GROUP_AUTHORIZATION_FAILED otherwise).
#include <memory>

#include "broker/handlers/handler.h"
#include "broker/server/wake_signal.h"

namespace floe::broker {

namespace {

struct SyncRequest {
  std::string group_id;
  int32_t generation = -1;
  std::string member_id;
  std::vector<std::pair<std::string, std::string>> assignments;
};

Result<SyncRequest> DecodeSyncGroupRequest(int16_t v, WireReader& in) {
  SyncRequest request;
  FLOE_ASSIGN_OR_RETURN(std::string_view group_id, in.String("group_id"));
  FLOE_ASSIGN_OR_RETURN(request.generation, in.Int32("generation_id"));
  FLOE_ASSIGN_OR_RETURN(std::string_view member_id, in.String("member_id"));
  request.group_id = std::string(group_id);
  request.member_id = std::string(member_id);
  if (v >= 3) FLOE_RETURN_IF_ERROR(in.NullableString("group_instance_id"));
  FLOE_ASSIGN_OR_RETURN(int32_t count, in.ArrayLength("assignments", 6));
  for (int32_t i = 0; i < count; ++i) {
    FLOE_ASSIGN_OR_RETURN(std::string_view member, in.String("assignment member_id"));
    FLOE_ASSIGN_OR_RETURN(std::string_view assignment, in.Bytes("assignment"));
    request.assignments.emplace_back(std::string(member), std::string(assignment));
  }
  return request;
}

}  // namespace

awaitable<Status> HandleSyncGroup(RequestContext& ctx, WireReader& in, WireWriter& out) {
  const int16_t v = ctx.version();
  auto request = DecodeSyncGroupRequest(v, in);
  if (!request) co_return std::unexpected(std::move(request).error());
  auto result = std::make_shared<SyncResult>();
  if (!ctx.AllowsGroup(request->group_id, auth::Operation::kRead)) {
    result->error = ErrorCode::kGroupAuthorizationFailed;
  } else {
    auto signal = std::make_shared<WakeSignal>(ctx.broker.executor());
    ctx.broker.groups().Sync(request->group_id, request->generation, request->member_id, request->assignments,
                             [signal, result](const SyncResult& r) {
                               *result = r;
                               signal->Notify();
                             });
    co_await signal->Wait();
  }
  if (v >= 1) out.Int32(0);
  out.Int16(Wire(result->error));
  out.Bytes(result->assignment);
  co_return OkStatus();
}

}  // namespace floe::broker

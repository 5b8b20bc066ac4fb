// FindCoordinator (key 10), v0-2: this broker coordinates every group (key type 0) and every
// transactional id (key type 1); another key type is INVALID_REQUEST. Unlike Kafka, finding a group's
// coordinator needs no right on the group: the answer is always this one broker, so it tells
// nobody anything, and clients (kafkajs) report a refusal here only as "coordinator not
// found"; JoinGroup, SyncGroup, Heartbeat, OffsetCommit and OffsetFetch refuse with
// GROUP_AUTHORIZATION_FAILED instead.
#include "broker/handlers/handler.h"

namespace floe::broker {

Status HandleFindCoordinator(RequestContext& ctx, WireReader& in, WireWriter& out) {
  const int16_t v = ctx.version();
  FLOE_RETURN_IF_ERROR(in.String("key"));
  int8_t key_type = 0;
  if (v >= 1) {
    FLOE_ASSIGN_OR_RETURN(key_type, in.Int8("key_type"));
  }
  ErrorCode error = key_type == 0 || key_type == 1 ? ErrorCode::kNone : ErrorCode::kInvalidRequest;
  if (v >= 1) out.Int32(0);
  out.Int16(Wire(error));
  if (v >= 1) out.NullableString(error == ErrorCode::kNone ? std::nullopt : std::optional<std::string_view>("key type must be 0 (group) or 1 (transaction)"));
  out.Int32(error == ErrorCode::kNone ? ctx.broker.config().node_id : -1);
  out.String(error == ErrorCode::kNone ? ctx.broker.advertised().host : "");
  out.Int32(error == ErrorCode::kNone ? ctx.broker.advertised().port : -1);
  return OkStatus();
}

}  // namespace floe::broker

// AddOffsetsToTxn (key 25), v0-3: lets a transaction commit a consumer group's offsets
// (TxnOffsetCommit follows). The user must be allowed to read the group
// (GROUP_AUTHORIZATION_FAILED). v2+ clients understand PRODUCER_FENCED; v3 is flexible.
#include "broker/handlers/handler.h"

namespace floe::broker {

Status HandleAddOffsetsToTxn(RequestContext& ctx, WireReader& in, WireWriter& out) {
  const int16_t v = ctx.version();
  FLOE_ASSIGN_OR_RETURN(std::string_view transactional_id, in.String("transactional_id"));
  FLOE_ASSIGN_OR_RETURN(int64_t producer_id, in.Int64("producer_id"));
  FLOE_ASSIGN_OR_RETURN(int16_t epoch, in.Int16("producer_epoch"));
  FLOE_ASSIGN_OR_RETURN(std::string_view group_id, in.String("group_id"));
  FLOE_RETURN_IF_ERROR(in.SkipTaggedFields("AddOffsetsToTxn request"));
  ErrorCode error = ErrorCode::kGroupAuthorizationFailed;
  if (ctx.AllowsGroup(group_id, auth::Operation::kRead)) {
    error = ctx.broker.transactions().AddOffsets(std::string(transactional_id), producer_id, epoch,
                                                 std::string(group_id));
    if (error == ErrorCode::kProducerFenced && v < 2) error = ErrorCode::kInvalidProducerEpoch;
  }
  out.Int32(0);  // throttle_time_ms
  out.Int16(Wire(error));
  out.TaggedFields();
  return OkStatus();
}

}  // namespace floe::broker

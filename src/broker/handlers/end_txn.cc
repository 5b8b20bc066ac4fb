// EndTxn (key 26), v0-3: commits or aborts a producer's transaction. The answer comes once
// the decision is durable in the transaction log and the markers are written to every
// partition (and committed offsets applied to their groups). v2+ clients understand
// PRODUCER_FENCED, older ones get INVALID_PRODUCER_EPOCH; v3 is flexible.
#include "broker/handlers/handler.h"

namespace floe::broker {

Status HandleEndTxn(RequestContext& ctx, WireReader& in, WireWriter& out) {
  const int16_t v = ctx.version();
  FLOE_ASSIGN_OR_RETURN(std::string_view transactional_id, in.String("transactional_id"));
  FLOE_ASSIGN_OR_RETURN(int64_t producer_id, in.Int64("producer_id"));
  FLOE_ASSIGN_OR_RETURN(int16_t epoch, in.Int16("producer_epoch"));
  FLOE_ASSIGN_OR_RETURN(bool commit, in.Bool("committed"));
  FLOE_RETURN_IF_ERROR(in.SkipTaggedFields("EndTxn request"));
  ErrorCode error = ctx.broker.transactions().EndTxn(std::string(transactional_id), producer_id, epoch, commit);
  if (error == ErrorCode::kProducerFenced && v < 2) error = ErrorCode::kInvalidProducerEpoch;
  out.Int32(0);  // throttle_time_ms
  out.Int16(Wire(error));
  out.TaggedFields();
  return OkStatus();
}

}  // namespace floe::broker

// InitProducerId (key 22), v0-4: a fresh producer id (epoch 0) for an idempotent producer, or,
// with a transactional id, the transaction coordinator's producer id for it with the epoch
// bumped (fencing the previous producer; its open transaction is aborted). v2+ is flexible; v3
// carries the producer id and epoch the client holds (KIP-360); v4 clients understand
// PRODUCER_FENCED, older ones get INVALID_PRODUCER_EPOCH (KIP-588).
#include "broker/handlers/handler.h"

namespace floe::broker {

Status HandleInitProducerId(RequestContext& ctx, WireReader& in, WireWriter& out) {
  const int16_t v = ctx.version();
  FLOE_ASSIGN_OR_RETURN(auto transactional_id, in.NullableString("transactional_id"));
  FLOE_ASSIGN_OR_RETURN(int32_t timeout_ms, in.Int32("transaction_timeout_ms"));
  std::optional<std::pair<int64_t, int16_t>> current;
  if (v >= 3) {
    FLOE_ASSIGN_OR_RETURN(int64_t producer_id, in.Int64("producer_id"));
    FLOE_ASSIGN_OR_RETURN(int16_t epoch, in.Int16("producer_epoch"));
    if (producer_id >= 0) current.emplace(producer_id, epoch);
  }
  FLOE_RETURN_IF_ERROR(in.SkipTaggedFields("InitProducerId request"));
  TransactionCoordinator::InitResult result;
  if (!transactional_id) {
    result.producer_id = ctx.broker.NextProducerId();
    result.producer_epoch = 0;
  } else if (transactional_id->empty()) {
    result.error = ErrorCode::kInvalidRequest;
  } else {
    result = ctx.broker.transactions().InitProducerId(std::string(*transactional_id), timeout_ms, current);
    if (result.error == ErrorCode::kProducerFenced && v < 4) result.error = ErrorCode::kInvalidProducerEpoch;
  }
  out.Int32(0);  // throttle_time_ms
  out.Int16(Wire(result.error));
  out.Int64(result.error == ErrorCode::kNone ? result.producer_id : -1);
  out.Int16(result.error == ErrorCode::kNone ? result.producer_epoch : -1);
  out.TaggedFields();
  return OkStatus();
}

}  // namespace floe::broker

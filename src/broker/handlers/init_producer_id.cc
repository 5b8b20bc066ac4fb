// InitProducerId (key 22), v0-1: a fresh producer id (epoch 0) for idempotent producers.
// Transactional ids are refused: transactions are not implemented.
#include "broker/handlers/handler.h"

namespace floe::broker {

Status HandleInitProducerId(RequestContext& ctx, WireReader& in, WireWriter& out) {
  FLOE_ASSIGN_OR_RETURN(auto transactional_id, in.NullableString("transactional_id"));
  FLOE_RETURN_IF_ERROR(in.Int32("transaction_timeout_ms"));
  out.Int32(0);
  if (transactional_id) {
    out.Int16(Wire(ErrorCode::kCoordinatorNotAvailable));
    out.Int64(-1);
    out.Int16(-1);
    return OkStatus();
  }
  out.Int16(Wire(ErrorCode::kNone));
  out.Int64(ctx.broker.NextProducerId());
  out.Int16(0);
  return OkStatus();
}

}  // namespace floe::broker

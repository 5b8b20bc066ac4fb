// SaslHandshake (key 17), v1: the client names its SASL mechanism; the tokens follow in
// SaslAuthenticate requests.
#include "broker/handlers/handler.h"

namespace floe::broker {
namespace {

constexpr std::string_view kMechanisms[] = {"PLAIN", "SCRAM-SHA-256"};

}  // namespace

Status HandleSaslHandshake(RequestContext& ctx, WireReader& in, WireWriter& out) {
  FLOE_ASSIGN_OR_RETURN(std::string_view mechanism, in.String("mechanism"));
  const bool enabled = !ctx.broker.config().users.empty();
  bool known = false;
  for (std::string_view m : kMechanisms) known = known || m == mechanism;
  ErrorCode error = ErrorCode::kNone;
  if (!enabled || !known) {
    error = ErrorCode::kUnsupportedSaslMechanism;
  } else if (ctx.sasl.authenticated || !ctx.sasl.mechanism.empty()) {
    error = ErrorCode::kIllegalSaslState;
  } else {
    ctx.sasl.mechanism = std::string(mechanism);
  }
  out.Int16(Wire(error));
  if (!enabled) {
    out.ArrayLength(0);  // No SASL on this broker: the client reports the mechanism unsupported.
  } else {
    out.ArrayLength(std::size(kMechanisms));
    for (std::string_view m : kMechanisms) out.String(m);
  }
  if (error != ErrorCode::kNone) ctx.close_after_response = true;
  return OkStatus();
}

}  // namespace floe::broker

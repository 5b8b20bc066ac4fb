// SaslAuthenticate (key 36), v0-1: the mechanism's tokens. PLAIN takes one message
// ("authzid NUL user NUL password"); SCRAM-SHA-256 two (client-first, client-final). A failed
// attempt is answered with SASL_AUTHENTICATION_FAILED after auth::kFailedLoginDelay (the
// connection's writer waits) and the connection closed; it is logged with the peer's address,
// never with the password. Both mechanisms check the user's SCRAM verifier.
#include "broker/handlers/handler.h"

#include "auth/users.h"
#include "base/logging.h"

namespace floe::broker {
namespace {

struct Outcome {
  ErrorCode error = ErrorCode::kNone;
  std::string message;
  std::string bytes;
};

Outcome Failed(std::string message) { return Outcome{ErrorCode::kSaslAuthenticationFailed, std::move(message), {}}; }

Outcome Plain(RequestContext& ctx, std::string_view token) {
  size_t first = token.find('\0');
  size_t second = first == std::string_view::npos ? first : token.find('\0', first + 1);
  if (second == std::string_view::npos) return Failed("malformed PLAIN message");
  std::string_view authzid = token.substr(0, first);
  std::string_view user = token.substr(first + 1, second - first - 1);
  std::string_view password = token.substr(second + 1);
  if (!authzid.empty() && authzid != user) return Failed("PLAIN: authorization identity differs from the user");
  if (!auth::CheckPassword(ctx.broker.config().users, user, password)) return Failed("invalid username or password");
  ctx.sasl.authenticated = true;
  ctx.sasl.user = std::string(user);
  return {};
}

Outcome Scram(RequestContext& ctx, std::string_view token) {
  if (!ctx.sasl.scram) {
    auto user = auth::ScramClientUser(token);
    if (!user) return Failed("malformed SCRAM client-first message");
    const auth::AuthUser* account = auth::FindUser(ctx.broker.config().users, *user);
    // An unknown user runs the exchange against a decoy verifier, so it fails the same way a
    // wrong password does and does not reveal which names exist.
    auto verifier = account ? Result<auth::ScramVerifier>(account->verifier) : auth::DecoyScramVerifier();
    if (!verifier) return Failed(verifier.error().message());
    ctx.sasl.scram = std::make_unique<auth::ScramExchange>(std::move(*verifier));
    ctx.sasl.user = *user;
    auto first = ctx.sasl.scram->ServerFirst(token);
    if (!first) return Failed(first.error().message());
    return Outcome{ErrorCode::kNone, {}, std::move(*first)};
  }
  auto final_message = ctx.sasl.scram->ServerFinal(token);
  ctx.sasl.scram.reset();
  if (!final_message) return Failed("invalid username or password");
  ctx.sasl.authenticated = true;
  return Outcome{ErrorCode::kNone, {}, std::move(*final_message)};
}

}  // namespace

Status HandleSaslAuthenticate(RequestContext& ctx, WireReader& in, WireWriter& out) {
  FLOE_ASSIGN_OR_RETURN(std::string_view token, in.Bytes("auth_bytes"));
  if (ctx.version() >= 2) FLOE_RETURN_IF_ERROR(in.SkipTaggedFields("SaslAuthenticate request"));
  Outcome outcome;
  if (ctx.sasl.authenticated || ctx.sasl.mechanism.empty()) {
    outcome = Outcome{ErrorCode::kIllegalSaslState, "SaslAuthenticate without a pending SaslHandshake", {}};
  } else if (ctx.sasl.mechanism == "PLAIN") {
    outcome = Plain(ctx, token);
  } else {
    outcome = Scram(ctx, token);
  }
  if (outcome.error != ErrorCode::kNone) {
    ctx.close_after_response = true;
    Logger("broker")->warn("authentication of '{}' from {} with {} failed: {}", ctx.sasl.user, ctx.client_host, ctx.sasl.mechanism,
                           outcome.message);
  } else if (ctx.sasl.authenticated) {
    Logger("broker")->info("'{}' authenticated from {} with {}", ctx.sasl.user, ctx.client_host, ctx.sasl.mechanism);
  }
  out.Int16(Wire(outcome.error));
  out.NullableString(outcome.error == ErrorCode::kNone ? std::nullopt : std::optional<std::string_view>(outcome.message));
  out.Bytes(outcome.bytes);
  if (ctx.version() >= 1) out.Int64(0);  // session_lifetime_ms: no re-authentication required.
  out.TaggedFields();
  return OkStatus();
}

}  // namespace floe::broker

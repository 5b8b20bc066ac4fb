// The server side of SCRAM-SHA-256 (RFC 5802 with RFC 7677's hash), without channel binding,
// as PostgreSQL and Kafka (SASL mechanism SCRAM-SHA-256) use it. One exchange per
// authentication attempt, on one connection. It works from the user's verifier (salt,
// iterations, StoredKey, ServerKey), never from a password.
#pragma once

#include <optional>
#include <string>
#include <string_view>

#include "auth/scram_verifier.h"
#include "base/result.h"

namespace floe::auth {

// The user name of a client-first-message ("n,,n=alice,r=...", with =2C and =3D decoded);
// nullopt when it is malformed. PostgreSQL clients leave it empty (the startup packet names
// the user); Kafka clients put it here.
std::optional<std::string> ScramClientUser(std::string_view client_first);

class ScramExchange {
 public:
  // `server_nonce` empty: a random one per exchange; a fixed one only for known-answer tests
  // (RFC 7677).
  explicit ScramExchange(ScramVerifier verifier, std::string server_nonce = "")
      : verifier_(std::move(verifier)), server_nonce_(std::move(server_nonce)) {}

  // client-first-message ("n,,n=,r=NONCE") -> server-first-message.
  Result<std::string> ServerFirst(std::string_view client_first);
  // client-final-message ("c=biws,r=NONCE,p=PROOF") -> server-final-message ("v=SIGNATURE");
  // kUnauthenticated when the proof is wrong.
  Result<std::string> ServerFinal(std::string_view client_final);

 private:
  ScramVerifier verifier_;
  std::string server_nonce_;        // Empty: a random one.
  std::string nonce_;               // Client nonce + server nonce.
  std::string client_first_bare_;
  std::string server_first_;
};

}  // namespace floe::auth

// What the server keeps of a password (RFC 5802 section 3, with RFC 7677's SHA-256): a salt, an
// iteration count, StoredKey = H(HMAC(SaltedPassword, "Client Key")) and ServerKey =
// HMAC(SaltedPassword, "Server Key"). Enough to check a SCRAM proof or a password, never enough
// to recover the password or to log in with SCRAM. Text form, as PostgreSQL stores it in
// pg_authid: "SCRAM-SHA-256$<iterations>:<salt>$<StoredKey>:<ServerKey>" (base64). Value type.
#pragma once

#include <string>
#include <string_view>

#include "base/result.h"

namespace floe::auth {

// RFC 7677's minimum and PostgreSQL's default; Kafka clients accept up to 16384.
inline constexpr int kScramIterations = 4096;

struct ScramVerifier {
  std::string salt;  // Raw bytes.
  int iterations = kScramIterations;
  std::string stored_key;  // 32 raw bytes.
  std::string server_key;  // 32 raw bytes.
};

// The verifier of `password` with a fresh random salt.
Result<ScramVerifier> MakeScramVerifier(std::string_view password, int iterations = kScramIterations);
// The verifier of `password` with the given salt (known-answer tests).
ScramVerifier DeriveScramVerifier(std::string_view password, std::string_view salt, int iterations);
// A verifier no password matches: what an unknown user is checked against, so a refusal takes
// the same work and answer as a wrong password and does not reveal which names exist.
Result<ScramVerifier> DecoyScramVerifier();

Result<ScramVerifier> ParseScramVerifier(std::string_view text);
std::string FormatScramVerifier(const ScramVerifier& verifier);

// Whether `password` matches: derives the client key from it with the verifier's salt and
// iterations and compares its hash with StoredKey in constant time.
bool VerifyPassword(const ScramVerifier& verifier, std::string_view password);

// The primitives SCRAM is made of.
std::string ScramHmac(std::string_view key, std::string_view data);
std::string ScramHash(std::string_view data);

}  // namespace floe::auth

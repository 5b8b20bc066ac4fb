// The users of `--auth-file`, shared by every listener that authenticates: Kafka SASL, the
// Trino protocol's basic auth, PostgreSQL, the REST catalog's OAuth2 client credentials.
// Immutable once loaded; any thread.
//
// TOML, one [[user]] each:
//   name = "alice"
//   verifier = "SCRAM-SHA-256$4096:<salt>$<StoredKey>:<ServerKey>"   (what `floe user add` writes)
//   role = "reader" | "writer" | "admin"                             (default "writer")
//   method = "scram-sha-256" | "password" | "md5"                    (PostgreSQL; default SCRAM)
// and any number of [[grant]] entries after them (grant.h), each for one of those users:
//   user = "alice"   topic = "orders" | namespace = "shop" | group = "dash-*"
//   allow = ["read", "write", "create", "delete", "alter"]   deny = [...]
// A plaintext `password = "..."` instead of `verifier` still loads, with a warning. The file
// must be readable by its owner alone (chmod 600): it is refused otherwise.
#pragma once

#include <chrono>
#include <string>
#include <string_view>
#include <vector>

#include "auth/grant.h"
#include "auth/scram_verifier.h"
#include "base/result.h"

namespace floe::auth {

// How long every listener waits before answering a failed login (which it also logs with the
// peer's address): guessing passwords online then takes at least this per attempt and
// connection, and the per-address connection caps bound the attempts in flight.
inline constexpr std::chrono::milliseconds kFailedLoginDelay{500};

struct AuthUser {
  std::string name;
  // Only for a plaintext `password` entry (deprecated): PostgreSQL's MD5 needs it. Every check
  // uses `verifier`, which a plaintext entry gets derived at load.
  std::string password;
  ScramVerifier verifier;
  // PostgreSQL: "scram-sha-256", "password" (cleartext; offered only over TLS) or "md5" (only
  // over TLS, only for a plaintext entry). Without TLS the port offers SCRAM-SHA-256 alone.
  std::string method = "scram-sha-256";
  // "reader", "writer" (the default) or "admin" (see role.h).
  std::string role = "writer";
  // The [[grant]] entries naming this user, in file order (authorize.h decides with them).
  std::vector<Grant> grants;
};

// A user with `password`'s verifier (fresh salt): what `floe user add` stores, and tests build.
Result<AuthUser> MakeAuthUser(std::string name, std::string_view password, std::string role = "writer");

// Refuses a file its group or others may access (kPermissionDenied), then parses it. Errors
// are kInvalidArgument and name the source and line: "users.toml:12: ...".
Result<std::vector<AuthUser>> LoadAuthFile(const std::string& path);
Result<std::vector<AuthUser>> ParseAuthToml(std::string_view text, std::string_view source);
// The TOML of `users`: verifiers, and the plaintext password of entries that had one, then
// every user's grants.
std::string FormatAuthToml(const std::vector<AuthUser>& users);
// Writes FormatAuthToml(users) to `path`, created (or replaced) with mode 0600.
Status SaveAuthFile(const std::string& path, const std::vector<AuthUser>& users);

// The user called `name`, or null.
const AuthUser* FindUser(const std::vector<AuthUser>& users, std::string_view name);
// Whether `name` and `password` name a user: the password's client key is derived with the
// user's salt and compared with its StoredKey in constant time. An unknown name is checked
// against a decoy verifier, so it costs the same as a wrong password.
bool CheckPassword(const std::vector<AuthUser>& users, std::string_view name, std::string_view password);

}  // namespace floe::auth

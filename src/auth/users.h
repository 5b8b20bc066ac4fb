// The users of `--auth-file` (TOML: `[[user]] name = "..." password = "..."`, optionally
// `method = "scram-sha-256|md5|password"` for the PostgreSQL port and
// `role = "reader|writer|admin"`), shared by every listener
// that authenticates: Kafka SASL, the Trino protocol's basic auth, PostgreSQL, the REST
// catalog's OAuth2 client credentials. Immutable once loaded; any thread.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "base/result.h"

namespace floe::auth {

struct AuthUser {
  std::string name;
  std::string password;
  std::string method = "scram-sha-256";  // PostgreSQL: "scram-sha-256", "md5" or "password" (cleartext).
  // "reader", "writer" (the default) or "admin". Only an admin may use the console's playground,
  // which takes boxes down and injects storage faults.
  std::string role = "writer";
};

Result<std::vector<AuthUser>> LoadAuthFile(const std::string& path);
Result<std::vector<AuthUser>> ParseAuthToml(std::string_view text, std::string_view source);

// The user called `name`, or null.
const AuthUser* FindUser(const std::vector<AuthUser>& users, std::string_view name);
// Whether `name` and `password` name a user, comparing passwords in constant time.
bool CheckPassword(const std::vector<AuthUser>& users, std::string_view name, std::string_view password);

}  // namespace floe::auth

// OAuthTokens: the REST catalog's OAuth2 client-credentials token endpoint
// (POST /v1/oauth/tokens) and the bearer tokens it issues, for when users are configured
// (`--auth-file`: client id = user name, secret = password, checked against the user's SCRAM
// verifier). Each token remembers the user it was issued to, so the catalog knows who sends a
// request and so its role. Tokens are random (auth::SecureRandomBytes), held in memory only (a
// restart signs everyone out; clients fetch a new one on 401) and expire after `lifetime`.
// Thread-safe.
#pragma once

#include <chrono>
#include <map>
#include <mutex>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "auth/users.h"
#include "base/result.h"

namespace floe::catalog {

class OAuthTokens {
 public:
  explicit OAuthTokens(std::vector<auth::AuthUser> users, std::chrono::seconds lifetime = std::chrono::hours(1))
      : users_(std::move(users)), lifetime_(lifetime) {}

  bool enabled() const { return !users_.empty(); }
  std::chrono::seconds lifetime() const { return lifetime_; }
  const std::vector<auth::AuthUser>& users() const { return users_; }

  // A new token for valid credentials; kUnauthenticated otherwise.
  Result<std::string> Issue(std::string_view client_id, std::string_view secret);
  // The user a live token in `authorization` ("Bearer <token>") was issued to; nullopt when
  // there is none, or it is unknown or expired.
  std::optional<std::string> UserOf(std::string_view authorization);

 private:
  struct Grant {
    std::chrono::steady_clock::time_point expiry;
    std::string user;
  };
  std::vector<auth::AuthUser> users_;
  std::chrono::seconds lifetime_;
  std::mutex mu_;
  std::map<std::string, Grant, std::less<>> tokens_;  // Token → grant; guarded by mu_.
};

}  // namespace floe::catalog

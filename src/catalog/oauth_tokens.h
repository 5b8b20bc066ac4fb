// OAuthTokens: the REST catalog's OAuth2 client-credentials token endpoint
// (POST /v1/oauth/tokens) and the bearer tokens it issues, for when users are configured.
// Tokens are random, held in memory only (a restart signs everyone out; clients fetch a new
// one on 401) and expire after `lifetime`. Thread-safe.
#pragma once

#include <chrono>
#include <map>
#include <mutex>
#include <string>
#include <string_view>

#include "base/result.h"

namespace floe::catalog {

class OAuthTokens {
 public:
  // `users`: client id → secret.
  OAuthTokens(std::map<std::string, std::string> users, std::chrono::seconds lifetime = std::chrono::hours(1))
      : users_(std::move(users)), lifetime_(lifetime) {}

  bool enabled() const { return !users_.empty(); }
  std::chrono::seconds lifetime() const { return lifetime_; }

  // A new token for valid credentials; Unauthenticated otherwise.
  Result<std::string> Issue(std::string_view client_id, std::string_view secret);
  // Whether `authorization` ("Bearer <token>") carries a live token.
  bool Check(std::string_view authorization);

 private:
  std::map<std::string, std::string> users_;
  std::chrono::seconds lifetime_;
  std::mutex mu_;
  std::map<std::string, std::chrono::steady_clock::time_point> tokens_;  // Token → expiry; guarded by mu_.
};

// "id:secret,id2:secret2" → users; InvalidArgument when an entry has no ':'.
Result<std::map<std::string, std::string>> ParseUsers(std::string_view text);

}  // namespace floe::catalog

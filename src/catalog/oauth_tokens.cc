#include "catalog/oauth_tokens.h"

#include <fmt/format.h>

#include "auth/secure_random.h"

namespace floe::catalog {

Result<std::string> OAuthTokens::Issue(std::string_view client_id, std::string_view secret) {
  if (!auth::CheckPassword(users_, client_id, secret)) return Unauthenticated("invalid client credentials");
  FLOE_ASSIGN_OR_RETURN(std::string bytes, auth::SecureRandomBytes(32));
  std::string token;
  for (unsigned char b : bytes) token += fmt::format("{:02x}", b);
  auto now = std::chrono::steady_clock::now();
  std::lock_guard lock(mu_);
  std::erase_if(tokens_, [&](const auto& entry) { return entry.second.expiry <= now; });
  tokens_[token] = Grant{now + lifetime_, std::string(client_id)};
  return token;
}

std::optional<std::string> OAuthTokens::UserOf(std::string_view authorization) {
  constexpr std::string_view kBearer = "Bearer ";
  if (authorization.size() <= kBearer.size() ||
      !std::equal(kBearer.begin(), kBearer.end(), authorization.begin(),
                  [](char a, char b) { return std::tolower(a) == std::tolower(b); })) {
    return std::nullopt;
  }
  std::lock_guard lock(mu_);
  auto it = tokens_.find(authorization.substr(kBearer.size()));
  if (it == tokens_.end() || it->second.expiry <= std::chrono::steady_clock::now()) return std::nullopt;
  return it->second.user;
}

}  // namespace floe::catalog

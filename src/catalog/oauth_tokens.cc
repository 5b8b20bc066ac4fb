#include "catalog/oauth_tokens.h"

#include <openssl/rand.h>

#include <fmt/format.h>

namespace floe::catalog {
namespace {

// Compares without stopping at the first difference, so timing does not reveal the secret.
bool SameSecret(std::string_view a, std::string_view b) {
  unsigned char difference = a.size() == b.size() ? 0 : 1;
  for (size_t i = 0; i < a.size(); ++i) {
    difference |= static_cast<unsigned char>(a[i] ^ (i < b.size() ? b[i] : 0));
  }
  return difference == 0;
}

}  // namespace

Result<std::string> OAuthTokens::Issue(std::string_view client_id, std::string_view secret) {
  auto user = users_.find(std::string(client_id));
  if (user == users_.end() || !SameSecret(user->second, secret)) {
    return Unauthenticated("invalid client credentials");
  }
  unsigned char bytes[32];
  if (RAND_bytes(bytes, sizeof(bytes)) != 1) {
    return Internal("no randomness for a token");
  }
  std::string token;
  for (unsigned char b : bytes) {
    token += fmt::format("{:02x}", b);
  }
  auto now = std::chrono::steady_clock::now();
  std::lock_guard lock(mu_);
  std::erase_if(tokens_, [&](const auto& entry) { return entry.second <= now; });
  tokens_[token] = now + lifetime_;
  return token;
}

bool OAuthTokens::Check(std::string_view authorization) {
  constexpr std::string_view kBearer = "Bearer ";
  if (authorization.size() <= kBearer.size() ||
      !std::equal(kBearer.begin(), kBearer.end(), authorization.begin(),
                  [](char a, char b) { return std::tolower(a) == std::tolower(b); })) {
    return false;
  }
  std::string token(authorization.substr(kBearer.size()));
  std::lock_guard lock(mu_);
  auto it = tokens_.find(token);
  return it != tokens_.end() && it->second > std::chrono::steady_clock::now();
}

Result<std::map<std::string, std::string>> ParseUsers(std::string_view text) {
  std::map<std::string, std::string> users;
  size_t start = 0;
  while (start < text.size()) {
    size_t end = text.find(',', start);
    std::string_view entry = text.substr(start, end == std::string_view::npos ? std::string_view::npos : end - start);
    size_t colon = entry.find(':');
    if (colon == std::string_view::npos || colon == 0) {
      return InvalidArgument("user '{}': expected CLIENT_ID:SECRET", entry);
    }
    users[std::string(entry.substr(0, colon))] = std::string(entry.substr(colon + 1));
    if (end == std::string_view::npos) {
      break;
    }
    start = end + 1;
  }
  return users;
}

}  // namespace floe::catalog

#include "serve/basic_auth.h"

#include <fmt/format.h>

#include "base/base64.h"
#include "base/logging.h"

namespace floe::serve {

std::optional<net::HttpResponse> CheckBasicAuth(const std::vector<auth::AuthUser>& users, const net::HttpRequest& request) {
  auto challenge = [](std::string message) {
    net::HttpResponse response = net::HttpResponse::Text(401, message + "\n");
    response.headers.Set("WWW-Authenticate", "Basic realm=\"floe\"");
    return response;
  };
  std::string_view header = request.headers.Get("Authorization").value_or("");
  constexpr std::string_view kBasic = "Basic ";
  if (header.size() <= kBasic.size() || header.substr(0, kBasic.size()) != kBasic) return challenge("authentication required");
  auto decoded = Base64Decode(header.substr(kBasic.size()));
  if (!decoded) return challenge("malformed basic credentials");
  size_t colon = decoded->find(':');
  if (colon == std::string::npos) return challenge("malformed basic credentials");
  std::string_view user = std::string_view(*decoded).substr(0, colon);
  std::string_view password = std::string_view(*decoded).substr(colon + 1);
  if (!auth::CheckPassword(users, user, password)) {
    Logger("serve")->warn("basic authentication of '{}' from {} failed", user, request.remote_address);
    net::HttpResponse refused = challenge("invalid username or password");
    refused.delay = auth::kFailedLoginDelay;
    return refused;
  }
  std::string_view session_user = request.headers.Get("X-Trino-User").value_or(user);
  if (session_user != user) {
    return net::HttpResponse::Text(403, fmt::format("user '{}' cannot run queries as '{}'\n", user, session_user));
  }
  return std::nullopt;
}

std::string BasicAuthUserName(const net::HttpRequest& request) {
  std::string_view header = request.headers.Get("Authorization").value_or("");
  constexpr std::string_view kBasic = "Basic ";
  if (!header.starts_with(kBasic)) return "";
  auto decoded = Base64Decode(header.substr(kBasic.size()));
  if (!decoded) return "";
  return decoded->substr(0, decoded->find(':'));
}

}  // namespace floe::serve

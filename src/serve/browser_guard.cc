#include "serve/browser_guard.h"

#include <algorithm>
#include <cctype>

#include <boost/asio/ip/address.hpp>

namespace floe::serve {
namespace {

std::string Lower(std::string_view text) {
  std::string out(text);
  std::transform(out.begin(), out.end(), out.begin(), [](unsigned char c) { return std::tolower(c); });
  return out;
}

// The host part of a Host header value or of an origin's authority: "[::1]:8080" -> "::1".
std::string HostPart(std::string_view authority) {
  if (authority.starts_with('[')) {
    size_t close = authority.find(']');
    return close == std::string_view::npos ? std::string() : Lower(authority.substr(1, close - 1));
  }
  size_t colon = authority.rfind(':');
  if (colon != std::string_view::npos && authority.find(':') == colon) authority = authority.substr(0, colon);
  return Lower(authority);
}

bool AllowedHost(const std::string& host, const std::string& listen_host) {
  if (host.empty()) return false;
  boost::system::error_code ec;
  boost::asio::ip::make_address(host, ec);
  if (!ec) return true;  // An IP literal cannot be rebound to another machine.
  if (host == "localhost" || host.ends_with(".localhost")) return true;
  return host == Lower(listen_host);
}

net::HttpResponse Refuse(int status, std::string_view message) {
  return net::HttpResponse::Text(status, std::string(message) + "\n");
}

}  // namespace

std::optional<net::HttpResponse> CheckBrowserRequest(const net::HttpRequest& request, const std::string& listen_host) {
  // HTTP/1.1 requires Host; an HTTP/1.0 client without one is not a browser.
  if (auto host = request.headers.Get("Host")) {
    if (!AllowedHost(HostPart(*host), listen_host)) {
      return Refuse(403, "Host is not this server's address (start the server with its name as the listen host)");
    }
  }
  if (request.method == "GET" || request.method == "HEAD" || request.method == "OPTIONS") return std::nullopt;
  if (auto origin = request.headers.Get("Origin")) {
    std::string_view value = *origin;
    size_t scheme = value.find("://");
    auto host = request.headers.Get("Host");
    if (scheme == std::string_view::npos || !host || Lower(value.substr(scheme + 3)) != Lower(*host)) {
      return Refuse(403, "cross-origin requests may not change anything");
    }
  }
  if (request.path.starts_with("/api/")) {
    std::string type = Lower(request.headers.Get("Content-Type").value_or(""));
    type = type.substr(0, type.find(';'));
    while (!type.empty() && type.back() == ' ') type.pop_back();
    if (type != "application/json") {
      return Refuse(415, "state-changing /api/ requests need Content-Type: application/json");
    }
  }
  return std::nullopt;
}

void AddContentSecurityHeaders(net::HttpResponse& response) {
  response.headers.Set("Content-Security-Policy",
                       "default-src 'self'; img-src 'self' data:; style-src 'self' 'unsafe-inline'; "
                       "object-src 'none'; base-uri 'none'; frame-ancestors 'none'");
  response.headers.Set("X-Frame-Options", "DENY");
  response.headers.Set("X-Content-Type-Options", "nosniff");
}

}  // namespace floe::serve

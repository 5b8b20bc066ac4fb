// BrowserGuard: what keeps a web page the user happens to visit from driving the query server's
// HTTP port (issue #27, finding 2). A browser sends requests to 127.0.0.1 on behalf of any site,
// so without these checks a cross-site form could run SQL, move the playground or, after DNS
// rebinding, read the answers:
//  - Host must be an IP literal, a loopback name ("localhost", "*.localhost") or the configured
//    host: a rebound attacker's name is refused before anything is read or done;
//  - a state-changing request (anything but GET, HEAD, OPTIONS) with an Origin must come from
//    the same origin (its Origin's host:port is the Host); browsers always send Origin on
//    cross-origin POST and DELETE, clients like trino-client and curl send none;
//  - a state-changing request to the console's /api/ must say Content-Type: application/json,
//    which a cross-site page cannot send without a CORS preflight floe never answers.
// Pages get ContentSecurityHeaders (no framing: no clickjacking of the playground).
// Stateless; any thread.
#pragma once

#include <optional>
#include <string>

#include "net/http_message.h"

namespace floe::serve {

// Null when `request` may proceed; otherwise the 403 or 415 response to send.
std::optional<net::HttpResponse> CheckBrowserRequest(const net::HttpRequest& request, const std::string& listen_host);

// Adds Content-Security-Policy (frame-ancestors 'none'), X-Frame-Options and nosniff.
void AddContentSecurityHeaders(net::HttpResponse& response);

}  // namespace floe::serve

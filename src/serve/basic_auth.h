// HTTP basic authentication for the query server's HTTP port (Trino protocol, HTTP API,
// console) against the `--auth-file` users: Trino's password authenticator, as its JDBC
// driver, CLI and trino-client send it. Stateless; any thread.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "auth/users.h"
#include "net/http_message.h"

namespace floe::serve {

// Null when `request` carries `Authorization: Basic` credentials of one of `users` (and its
// X-Trino-User, if any, names that same user); otherwise the 401 (no or wrong credentials,
// with a WWW-Authenticate challenge) or 403 (another user) to send. The password is checked
// against the user's SCRAM verifier; a wrong one is logged with the peer's address and answered
// after auth::kFailedLoginDelay.
std::optional<net::HttpResponse> CheckBasicAuth(const std::vector<auth::AuthUser>& users, const net::HttpRequest& request);

// The user name of `request`'s basic credentials (unchecked: call CheckBasicAuth first), or empty.
std::string BasicAuthUserName(const net::HttpRequest& request);

}  // namespace floe::serve

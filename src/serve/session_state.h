// What a client session carries between queries: who it is, where unqualified names resolve,
// its session properties (Trino `SET SESSION`, PostgreSQL `SET`) and its prepared statements.
// A plain value: each protocol keeps one per connection (PostgreSQL) or rebuilds it from the
// request headers (Trino), hands a copy to a query, and takes back the query's changed copy.
#pragma once

#include <map>
#include <string>

#include "auth/authorize.h"

namespace floe::serve {

struct SessionState {
  std::string user = "floe";
  // Who the authenticated user is to authorization (role and grants); unrestricted when no
  // users are configured. Set by the protocol from its authentication, never from anything
  // the client claims.
  auth::Principal principal;
  std::string source;  // The client's name: "trino-js-client", "psql", ...
  std::string catalog = "floe";
  std::string schema = "default";
  std::string time_zone = "UTC";
  std::map<std::string, std::string> properties;  // Lower-case names.
  std::map<std::string, std::string> prepared;    // Name -> statement text.
};

}  // namespace floe::serve

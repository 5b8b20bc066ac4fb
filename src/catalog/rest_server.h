// RestCatalogServer: the Iceberg REST catalog API (open-api/rest-catalog-open-api.yaml) over a
// Catalog, served by `floe catalog`. Routes answer both with and without a {prefix} segment
// (clients that pass a warehouse use /v1/<warehouse>/...). Failed requirements answer 409,
// unknown or malformed updates and bodies 400, missing namespaces and tables 404, all with the
// spec's ErrorModel body; table metrics reports are accepted and dropped (204). Owned by the
// command that serves; Start/Stop from one thread; handlers run on the HTTP server's threads.
#pragma once

#include <memory>
#include <string>

#include "base/metrics.h"
#include "base/result.h"
#include "catalog/catalog.h"
#include "catalog/oauth_tokens.h"
#include "net/http_router.h"
#include "net/tls.h"
#include "net/http_server.h"

namespace floe::catalog {

struct RestServerOptions {
  std::string host = "127.0.0.1";
  uint16_t port = 8181;
  int threads = 8;  // Handlers block on the database and the store.
  std::string warehouse;  // Reported in /v1/config defaults.
  // Request counts and latencies go here and are served at GET /metrics; null: neither.
  MetricsRegistry* metrics = nullptr;
  // With tokens enabled, POST /v1/oauth/tokens issues bearer tokens for client credentials and
  // every other catalog route answers 401 without a live one. Null: no authentication.
  OAuthTokens* tokens = nullptr;
  net::TlsFiles tls;  // HTTPS when enabled.
  // Connections from one client address (net/connection_limiter.h); past it new ones are closed.
  size_t max_connections_per_address = 64;
};

// The router alone, for tests and for roles that mount the catalog beside other routes.
Result<net::HttpRouter> MakeRestCatalogRouter(Catalog& catalog, const RestServerOptions& options);

class RestCatalogServer {
 public:
  RestCatalogServer(Catalog& catalog, RestServerOptions options) : catalog_(catalog), options_(std::move(options)) {}

  Status Start();
  void Stop();
  uint16_t port() const { return server_ ? server_->port() : 0; }
  std::string address() const { return server_ ? server_->address() : ""; }

 private:
  Catalog& catalog_;
  RestServerOptions options_;
  std::unique_ptr<net::HttpServer> server_;
};

}  // namespace floe::catalog

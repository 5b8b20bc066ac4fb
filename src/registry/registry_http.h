// The Schema Registry's HTTP API (Confluent's REST API: /subjects, /schemas, /config,
// /compatibility, /mode) over a SchemaRegistry, for `floe registry`. Bodies are
// application/vnd.schemaregistry.v1+json (plain application/json is accepted too); errors are
// {"error_code", "message"}. With users, every route takes HTTP basic auth against them: a
// reader may read, look up and test compatibility, a writer may also register, an admin may
// also delete and change config and mode. Handlers run on the HTTP server's threads.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "auth/users.h"
#include "net/http_router.h"
#include "net/http_server.h"
#include "net/tls.h"
#include "registry/schema_registry.h"

namespace floe::registry {

struct RegistryServerOptions {
  std::string host = "127.0.0.1";
  uint16_t port = 8081;
  int threads = 4;
  std::vector<auth::AuthUser> users;  // Empty: no authentication.
  size_t max_connections_per_address = 64;
  net::TlsFiles tls;  // HTTPS when enabled.
};

// The router alone, for tests and for roles that mount it.
Result<net::HttpRouter> MakeRegistryRouter(SchemaRegistry& registry, const RegistryServerOptions& options);

class RegistryServer {
 public:
  RegistryServer(SchemaRegistry& registry, RegistryServerOptions options)
      : registry_(registry), options_(std::move(options)) {}

  Status Start();
  void Stop();
  std::string address() const { return server_ ? server_->address() : ""; }

 private:
  SchemaRegistry& registry_;
  RegistryServerOptions options_;
  std::unique_ptr<net::HttpServer> server_;
};

}  // namespace floe::registry

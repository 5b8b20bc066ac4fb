// The query server behind `floe query` and `floe up`'s query role: one HTTP port for Trino's
// client protocol, the console's JSON API, its static files and /metrics, and one port for
// PostgreSQL's wire protocol, both over one QueryManager (admission, limits, history) on one
// SqlCatalog. Owned by its role; Start/Stop from one thread, accessors from any.
#pragma once

#include <memory>
#include <string>

#include "base/metrics.h"
#include "net/http_server.h"
#include "serve/http_api.h"
#include "serve/pg_server.h"
#include "serve/query_manager.h"
#include "serve/static_files.h"
#include "serve/trino_protocol.h"

namespace floe::serve {

struct QueryServerOptions {
  std::string host = "127.0.0.1";
  uint16_t http_port = 8080;  // 0: any free port.
  int http_threads = 16;      // Trino polls block a thread for up to a second.
  bool pg_enabled = true;
  std::string pg_host = "127.0.0.1";
  uint16_t pg_port = 5433;
  PgServerOptions pg;  // pg.users (--auth-file) also guard the HTTP port with basic auth.
  // Connections from one client address, on the HTTP port and on the PostgreSQL port each
  // (net/connection_limiter.h); past it new ones are refused (PostgreSQL: FATAL 53300).
  size_t max_connections_per_address = 64;
  net::TlsFiles tls;   // When enabled: HTTPS, and TLS required on the PostgreSQL port.
  QueryManagerOptions queries;
  std::chrono::milliseconds trino_client_timeout{300'000};  // See TrinoProtocolOptions::client_timeout.
  std::chrono::milliseconds trino_final_page_linger{30'000};  // See TrinoProtocolOptions::final_page_linger.
  std::string web_root;  // Empty: no console.
  std::string version;  // Empty: floe's (the project version).
  PipelineControl* pipeline = nullptr;  // `floe up` only.
};

class QueryServer {
 public:
  // `catalog` outlives the server.
  QueryServer(sql::SqlCatalog& catalog, QueryServerOptions options);
  ~QueryServer();

  Status Start();
  void Stop();

  uint16_t http_port() const { return http_ ? http_->port() : 0; }
  uint16_t pg_port() const { return pg_ ? pg_->port() : 0; }
  std::string Describe() const;
  QueryManager& queries() { return *manager_; }
  MetricsRegistry& metrics() { return metrics_; }

 private:
  sql::SqlCatalog& catalog_;
  QueryServerOptions options_;
  MetricsRegistry metrics_;
  std::unique_ptr<QueryManager> manager_;
  std::unique_ptr<TrinoProtocol> trino_;
  std::unique_ptr<HttpApi> api_;
  std::unique_ptr<StaticFiles> files_;
  std::unique_ptr<net::HttpServer> http_;
  std::unique_ptr<PgServer> pg_;
};

}  // namespace floe::serve

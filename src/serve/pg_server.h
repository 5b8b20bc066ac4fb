// PostgreSQL's wire protocol v3 on its own port (docs/postgres-wire.md): startup with
// SSLRequest refused ('N'), trust on loopback when no users are configured, otherwise
// SCRAM-SHA-256, MD5 or cleartext passwords; simple and extended query; CancelRequest. Each
// connection is a coroutine on its own strand; queries run on the QueryManager's workers and
// the coroutine waits for them without holding a thread. A malformed message, an absurd length
// or a protocol violation closes that connection only. Owned by the QueryServer; Start/Stop
// from one thread, port() from any.
#pragma once

#include <chrono>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "base/metrics.h"
#include "base/result.h"
#include "net/tls.h"
#include "serve/pg_auth.h"
#include "serve/query_manager.h"

namespace floe::serve {

struct PgServerOptions {
  std::string host = "127.0.0.1";
  uint16_t port = 5433;  // 0: any free port.
  int threads = 2;
  std::vector<pg::AuthUser> users;  // Empty: trust loopback clients, refuse the others.
  uint32_t max_message_bytes = 64 << 20;
  // The startup packet and, until authentication completes, every message (passwords, SCRAM):
  // the unauthenticated cannot make the server buffer more than this.
  uint32_t max_startup_bytes = 10'000;
  // A connection that has not authenticated within this long is closed (PostgreSQL's
  // authentication_timeout).
  std::chrono::milliseconds authentication_timeout{60'000};
  // Connections open at once, and from one client address (net/connection_limiter.h); past
  // either a client gets FATAL 53300 (PostgreSQL's max_connections has the first).
  int max_connections = 100;
  int max_connections_per_address = 64;
  std::string version = "0";  // floe's, for version().
  net::TlsFiles tls;  // When enabled, clients must upgrade with SSLRequest (sslmode=require).
};

class PgServer {
 public:
  PgServer(QueryManager& manager, PgServerOptions options, MetricsRegistry* metrics);
  ~PgServer();
  PgServer(const PgServer&) = delete;
  PgServer& operator=(const PgServer&) = delete;

  Status Start();
  void Stop();
  uint16_t port() const;

  class Impl;  // Defined in pg_server.cc; named there by the connection type.

 private:
  std::unique_ptr<Impl> impl_;
};

}  // namespace floe::serve

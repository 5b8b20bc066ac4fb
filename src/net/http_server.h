// HttpServer: the HTTP/1.1 server every floe role uses (Iceberg REST catalog, Trino protocol,
// console, Prometheus /metrics), on Boost.Asio + Beast with C++20 coroutines.
//
// One coroutine per connection reads requests with size limits (413 for a large body, 431 for
// large headers, 400 for malformed bytes, each closing only that connection), routes them, and
// keeps the connection alive between requests until the idle timeout. The router's guard
// (authentication) sees each request's header before its body is read. Handlers run on the
// server's threads and may block them, so give the server as many threads as the handlers
// need. Stop() stops accepting, closes idle connections, lets requests in flight finish within
// the grace period, then stops. Owned by the role that serves; Start/Stop from one thread,
// port() from any.
#pragma once

#include <chrono>
#include <cstdint>
#include <memory>
#include <string>

#include "base/result.h"
#include "net/connection_limiter.h"
#include "net/http_router.h"
#include "net/tls.h"

namespace floe::net {

struct HttpServerOptions {
  std::string host = "127.0.0.1";
  uint16_t port = 0;  // 0: the OS picks a free port; read it back from port().
  int threads = 2;
  uint64_t max_body_bytes = 64 << 20;
  uint32_t max_header_bytes = 16 << 10;
  // Connections open at once, and from one client address (connection_limiter.h); past either,
  // new ones are closed on accept.
  size_t max_connections = 1000;
  size_t max_connections_per_address = 64;
  std::chrono::milliseconds idle_timeout{60'000};     // Between requests on a kept-alive connection.
  std::chrono::milliseconds request_timeout{60'000};  // To receive a request and send its response.
  std::string server_name = "floe";
  TlsFiles tls;  // When enabled, every connection speaks TLS (HTTPS) from its first byte.
};

class HttpServer {
 public:
  HttpServer(HttpServerOptions options, HttpRouter router);
  ~HttpServer();  // Stops, if running.
  HttpServer(const HttpServer&) = delete;
  HttpServer& operator=(const HttpServer&) = delete;

  // Binds, listens and starts the threads; the port is known when this returns.
  Status Start();
  // Graceful: requests in flight get up to `grace` to finish.
  void Stop(std::chrono::milliseconds grace = std::chrono::milliseconds(5000));

  uint16_t port() const;
  // "host:port" as bound.
  std::string address() const;

 private:
  class Impl;
  std::unique_ptr<Impl> impl_;
};

}  // namespace floe::net

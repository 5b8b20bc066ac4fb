// PostgresTestServer: a throwaway PostgreSQL server for tests: initdb into a temporary folder,
// pg_ctl start on a free loopback port, stop and delete on destruction. As root it runs the
// server as the `postgres` user (PostgreSQL refuses to run as root). Test-only; one thread.
#pragma once

#include <memory>
#include <string>

#include "base/result.h"

namespace floe::catalog {

class PostgresTestServer {
 public:
  // Unavailable when no PostgreSQL binaries are installed (the test should skip then).
  static Result<std::unique_ptr<PostgresTestServer>> Start();
  ~PostgresTestServer();

  // "postgresql://postgres@127.0.0.1:PORT/postgres"
  const std::string& uri() const { return uri_; }
  int port() const { return port_; }

 private:
  PostgresTestServer() = default;
  std::string folder_;
  std::string bin_;
  std::string run_as_;  // Empty when not root.
  std::string uri_;
  int port_ = 0;
};

}  // namespace floe::catalog

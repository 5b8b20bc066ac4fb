// PostgresTestServer: a throwaway PostgreSQL server for tests: initdb into a temporary folder,
// pg_ctl start on a free loopback port, stop and delete on destruction. As root it runs the
// server as the `postgres` user (PostgreSQL refuses to run as root). Test-only; one thread.
#pragma once

#include <memory>
#include <mutex>
#include <string>

#include "base/result.h"

namespace floe::catalog {

class PostgresTestServer {
 public:
  // Unavailable when no PostgreSQL binaries are installed (the test should skip then).
  static Result<std::unique_ptr<PostgresTestServer>> Start();

  // A server started on a slot's first use and kept for the rest of the process: a test
  // binary's tests share one instead of paying initdb each. Null, with the reason in *why_not,
  // when it could not start. Each slot is a server of its own.
  struct Slot {
    std::unique_ptr<PostgresTestServer> server;
    std::string failure;
    std::once_flag once;
  };
  static PostgresTestServer* StartOnce(Slot& slot, std::string* why_not);
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

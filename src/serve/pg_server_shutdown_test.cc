// The query server stopped and destroyed after PostgreSQL clients ran queries. The query
// manager (with its finished queries' result streams) outlives the PostgreSQL port's
// io_context, so anything a stream keeps of a connection must be safe to release after that
// io_context is gone; under AddressSanitizer a strand or timer released late is a
// use-after-free (it once hung `floe up` on SIGTERM and corrupted memory other threads used).
#include <arpa/inet.h>

#include <cstring>
#include <string>

#include <gtest/gtest.h>

#include "serve/query_server.h"
#include "sql/catalog/memory_catalog.h"
#include "support/loopback_connection.h"

namespace floe::serve {
namespace {

// A minimal PostgreSQL client over a raw socket: enough to log in and run simple queries.
class RawPgClient {
 public:
  explicit RawPgClient(uint16_t port) : conn_(port) {}

  bool connected() const { return conn_.connected(); }

  // Sends the startup message; true once the server is ready for a query.
  bool Login() {
    std::string params = std::string("user\0tester\0database\0floe\0\0", 27);
    std::string body;
    AppendInt(&body, 196608);  // Protocol 3.0.
    body += params;
    std::string message;
    AppendInt(&message, static_cast<int32_t>(body.size() + 4));
    message += body;
    return conn_.Send(message) && ReadUntilReady();
  }

  // Runs `sql` with the simple query protocol; true once the server is ready again.
  bool Query(const std::string& sql) {
    std::string message = "Q";
    AppendInt(&message, static_cast<int32_t>(sql.size() + 5));
    message += sql;
    message.push_back('\0');
    return conn_.Send(message) && ReadUntilReady();
  }

 private:
  static void AppendInt(std::string* out, int32_t v) {
    uint32_t be = htonl(static_cast<uint32_t>(v));
    out->append(reinterpret_cast<const char*>(&be), 4);
  }
  // Reads messages until ReadyForQuery ('Z'); false on an error response or a closed socket.
  bool ReadUntilReady() {
    while (true) {
      char header[5];
      if (!conn_.ReadExactly(header, 5)) return false;
      uint32_t length;
      std::memcpy(&length, header + 1, 4);
      length = ntohl(length);
      if (length < 4 || length > (1u << 24)) return false;
      std::string body(length - 4, '\0');
      if (!conn_.ReadExactly(body.data(), body.size())) return false;
      if (header[0] == 'E') return false;
      if (header[0] == 'Z') return true;
    }
  }

  ::floe::testing::LoopbackConnection conn_;
};

TEST(PgServerShutdown, QueriesOutlivingThePortAreReleasedSafely) {
  sql::MemoryCatalog catalog;
  catalog.AddSchema("default");
  QueryServerOptions options;
  options.http_port = 0;
  options.pg_port = 0;
  auto server = std::make_unique<QueryServer>(catalog, options);
  ASSERT_TRUE(server->Start().has_value());
  {
    // One client disconnects before the server stops, the other is still connected then.
    RawPgClient gone(server->pg_port());
    ASSERT_TRUE(gone.connected());
    ASSERT_TRUE(gone.Login());
    ASSERT_TRUE(gone.Query("SELECT 1"));
  }
  RawPgClient open(server->pg_port());
  ASSERT_TRUE(open.connected());
  ASSERT_TRUE(open.Login());
  ASSERT_TRUE(open.Query("SELECT 2"));
  ASSERT_TRUE(open.Query("SELECT 'x' AS y"));
  server->Stop();
  server.reset();  // The query manager, and its finished queries, go last.
}

}  // namespace
}  // namespace floe::serve

// The PostgreSQL port before authentication (issue #27, finding 4): a client that never
// authenticates is cut off after authentication_timeout, a large message before
// authentication is refused without being buffered, and connections past max_connections get
// FATAL 53300. Each test runs the attack with a raw socket and shows the server hang up.
#include <arpa/inet.h>

#include <chrono>
#include <memory>
#include <string>

#include <gtest/gtest.h>

#include "serve/query_server.h"
#include "sql/catalog/memory_catalog.h"
#include "support/loopback_connection.h"

namespace floe::serve {
namespace {

using std::chrono::milliseconds;
using std::chrono::steady_clock;

void AppendInt(std::string* out, int32_t v) {
  uint32_t be = htonl(static_cast<uint32_t>(v));
  out->append(reinterpret_cast<const char*>(&be), 4);
}

std::string StartupMessage(const std::string& user) {
  std::string body;
  AppendInt(&body, 196608);  // Protocol 3.0.
  body += "user";
  body.push_back('\0');
  body += user;
  body.push_back('\0');
  body.push_back('\0');
  std::string message;
  AppendInt(&message, static_cast<int32_t>(body.size() + 4));
  return message + body;
}

class PgLimitsTest : public ::testing::Test {
 protected:
  void StartServer(milliseconds auth_timeout, int max_connections) {
    catalog_.AddSchema("default");
    QueryServerOptions options;
    options.http_port = 0;
    options.pg_port = 0;
    auto alice = auth::MakeAuthUser("alice", "secret");
    ASSERT_TRUE(alice.has_value());
    // Users whose PostgreSQL method is cleartext or MD5; the file must keep MD5's plaintext.
    auto users = auth::ParseAuthToml(
        "[[user]]\nname = \"clear\"\npassword = \"pw\"\nmethod = \"password\"\n"
        "[[user]]\nname = \"hashed\"\npassword = \"pw\"\nmethod = \"md5\"\n", "test");
    ASSERT_TRUE(users.has_value());
    options.pg.users = {*alice, (*users)[0], (*users)[1]};
    options.pg.authentication_timeout = auth_timeout;
    options.pg.max_connections = max_connections;
    server_ = std::make_unique<QueryServer>(catalog_, options);
    ASSERT_TRUE(server_->Start().has_value());
  }
  void TearDown() override {
    if (server_) server_->Stop();
  }

  // Reads until the server closes; the time it took. The receive timeout (10 s) bounds a server
  // that never closes, and the callers check the time is well under it.
  static milliseconds ReadUntilClosed(::floe::testing::LoopbackConnection& conn, std::string* got) {
    conn.SetReceiveTimeout(milliseconds(10'000));
    auto start = steady_clock::now();
    while (conn.ReadSome(got)) {
    }
    return std::chrono::duration_cast<milliseconds>(steady_clock::now() - start);
  }

  sql::MemoryCatalog catalog_;
  std::unique_ptr<QueryServer> server_;
};

TEST_F(PgLimitsTest, AConnectionThatNeverAuthenticatesIsClosed) {
  StartServer(milliseconds(300), 100);
  // One that sends nothing at all, and one that stops at the password challenge.
  ::floe::testing::LoopbackConnection silent(server_->pg_port());
  ::floe::testing::LoopbackConnection stalled(server_->pg_port());
  ASSERT_TRUE(silent.connected() && stalled.connected());
  ASSERT_TRUE(stalled.Send(StartupMessage("alice")));
  std::string got;
  EXPECT_LT(ReadUntilClosed(silent, &got), milliseconds(5'000));
  got.clear();
  EXPECT_LT(ReadUntilClosed(stalled, &got), milliseconds(5'000));
  ASSERT_FALSE(got.empty());
  EXPECT_EQ(got[0], 'R') << "the server should have asked for the password first";
}

TEST_F(PgLimitsTest, ALargeMessageBeforeAuthenticationIsRefusedUnread) {
  StartServer(milliseconds(60'000), 100);
  ::floe::testing::LoopbackConnection conn(server_->pg_port());
  ASSERT_TRUE(conn.Send(StartupMessage("alice")));
  // A password message claiming 1 MiB (the authenticated limit is 64 MiB): refused on its
  // length, before any of it is sent.
  std::string message = "p";
  AppendInt(&message, 1 << 20);
  ASSERT_TRUE(conn.Send(message));
  std::string got;
  EXPECT_LT(ReadUntilClosed(conn, &got), milliseconds(5'000));
  EXPECT_NE(got.find("08P01"), std::string::npos) << got;
  EXPECT_NE(got.find("invalid message length"), std::string::npos) << got;
}

TEST_F(PgLimitsTest, ConnectionsPastTheCapGetTooManyClients) {
  StartServer(milliseconds(60'000), 2);
  ::floe::testing::LoopbackConnection first(server_->pg_port());
  ::floe::testing::LoopbackConnection second(server_->pg_port());
  ASSERT_TRUE(first.Send(StartupMessage("alice")) && second.Send(StartupMessage("alice")));
  std::string got;
  first.SetReceiveTimeout(milliseconds(5'000));
  ASSERT_TRUE(first.ReadSome(&got));  // The password request: both are being served.
  ::floe::testing::LoopbackConnection third(server_->pg_port());
  got.clear();
  EXPECT_LT(ReadUntilClosed(third, &got), milliseconds(5'000));
  EXPECT_NE(got.find("53300"), std::string::npos) << got;
  EXPECT_NE(got.find("too many clients"), std::string::npos) << got;
}

}  // namespace
}  // namespace floe::serve

namespace floe::serve {
namespace {

// The authentication request's code (3 cleartext, 5 MD5, 10 SASL) the server sends `user`.
int32_t OfferedMethod(uint16_t port, const std::string& user) {
  ::floe::testing::LoopbackConnection conn(port);
  EXPECT_TRUE(conn.Send(StartupMessage(user)));
  conn.SetReceiveTimeout(milliseconds(10'000));
  std::string got;
  while (got.size() < 9 && conn.ReadSome(&got)) {
  }
  if (got.size() < 9 || got[0] != 'R') return -1;
  uint32_t code = 0;
  for (int i = 5; i < 9; ++i) code = (code << 8) | static_cast<uint8_t>(got[i]);
  return static_cast<int32_t>(code);
}

// Issue #27, finding 7: without TLS a client (or a man in the middle downgrading it) is never
// asked for the cleartext password or an MD5 response, whatever the user's method says.
TEST_F(PgLimitsTest, WithoutTlsOnlyScramIsOffered) {
  StartServer(milliseconds(60'000), 100);
  for (const char* user : {"alice", "clear", "hashed", "nobody"}) {
    EXPECT_EQ(OfferedMethod(server_->pg_port(), user), 10) << user;  // AuthenticationSASL
  }
}

}  // namespace
}  // namespace floe::serve

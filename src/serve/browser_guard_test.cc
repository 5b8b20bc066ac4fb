// Issue #27, finding 2: a web page the user visits must not drive the query server's HTTP port.
// The attacks are sent as a browser would send them, against an in-process QueryServer.
#include "serve/browser_guard.h"

#include <gtest/gtest.h>

#include "base/base64.h"
#include "net/http_client.h"
#include "serve/query_server.h"
#include "sql/catalog/memory_catalog.h"

namespace floe::serve {
namespace {

class BrowserGuardTest : public ::testing::Test {
 protected:
  void Start(std::vector<auth::AuthUser> users = {}) {
    catalog_.AddSchema("default");
    QueryServerOptions options;
    options.http_port = 0;
    options.pg_enabled = false;
    options.pg.users = std::move(users);
    server_ = std::make_unique<QueryServer>(catalog_, options);
    ASSERT_TRUE(server_->Start().has_value());
    base_ = fmt::format("http://127.0.0.1:{}", server_->http_port());
  }
  void TearDown() override {
    if (server_) server_->Stop();
  }

  net::HttpResponse Send(std::string method, std::string path, std::string body,
                         std::vector<std::pair<std::string, std::string>> headers) {
    net::HttpClientRequest request{.method = std::move(method), .url = base_ + path, .body = body};
    for (auto& [name, value] : headers) request.headers.Set(name, value);
    auto response = client_.Send(request);
    EXPECT_TRUE(response.has_value()) << response.error().ToString();
    return response.value_or(net::HttpResponse{});
  }
  std::string Host() const { return base_.substr(7); }

  sql::MemoryCatalog catalog_;
  std::unique_ptr<QueryServer> server_;
  std::string base_;
  net::HttpClient client_;
};

TEST_F(BrowserGuardTest, CrossSiteRequestsChangeNothing) {
  Start();
  const std::string sql = R"({"sql":"SELECT 6 * 7 AS answer"})";
  // A cross-site form: text/plain, the attacker's Origin.
  EXPECT_EQ(Send("POST", "/api/query", sql, {{"Content-Type", "text/plain"}, {"Origin", "http://evil.example"}}).status, 403);
  // The Origin alone refuses it, whatever the type; the type alone refuses it without one.
  EXPECT_EQ(Send("POST", "/api/query", sql, {{"Content-Type", "application/json"}, {"Origin", "http://evil.example"}}).status,
            403);
  EXPECT_EQ(Send("POST", "/api/query", sql, {{"Content-Type", "text/plain"}}).status, 415);
  EXPECT_EQ(Send("POST", "/api/playground/traffic", R"({"rate":0})", {{"Content-Type", "text/plain"}}).status, 415);
  EXPECT_EQ(Send("POST", "/api/query", sql, {{"Content-Type", "application/json"}, {"Origin", "null"}}).status, 403);
  // The Trino protocol, from a page: refused; from a client (no Origin): served.
  EXPECT_EQ(Send("POST", "/v1/statement", "SELECT 1", {{"X-Trino-User", "t"}, {"Origin", "http://evil.example"}}).status, 403);
  EXPECT_EQ(Send("POST", "/v1/statement", "SELECT 1", {{"X-Trino-User", "t"}}).status, 200);
  // DNS rebinding: the attacker's name in Host is refused even for reads.
  EXPECT_EQ(Send("GET", "/api/queries", "", {{"Host", "evil.example:8080"}}).status, 403);
  EXPECT_EQ(Send("GET", "/api/queries", "", {{"Host", "localhost:8080"}}).status, 200);
  // The console itself, same-origin.
  net::HttpResponse ok = Send("POST", "/api/query", sql,
                              {{"Content-Type", "application/json; charset=utf-8"}, {"Origin", base_}, {"Host", Host()}});
  EXPECT_EQ(ok.status, 200) << ok.body;
  EXPECT_NE(ok.body.find("42"), std::string::npos) << ok.body;
}

TEST_F(BrowserGuardTest, PagesMayNotBeFramed) {
  Start();
  net::HttpResponse page = Send("GET", "/", "", {});
  EXPECT_NE(page.headers.Get("Content-Security-Policy").value_or("").find("frame-ancestors 'none'"), std::string::npos);
  EXPECT_EQ(page.headers.Get("X-Frame-Options").value_or(""), "DENY");
}

TEST_F(BrowserGuardTest, OnlyAnAdminMayUseThePlayground) {
  auto writer = auth::MakeAuthUser("wanda", "pw-w");
  auto admin = auth::MakeAuthUser("ada", "pw-a", "admin");
  ASSERT_TRUE(writer.has_value() && admin.has_value());
  Start({*writer, *admin});
  auto basic = [](std::string_view user, std::string_view password) {
    return "Basic " + Base64Encode(fmt::format("{}:{}", user, password));
  };
  const std::vector<std::pair<std::string, std::string>> json = {{"Content-Type", "application/json"}};
  auto as = [&](std::string authorization) {
    auto headers = json;
    headers.emplace_back("Authorization", std::move(authorization));
    return headers;
  };
  EXPECT_EQ(Send("POST", "/api/playground/traffic", R"({"rate":0})", json).status, 401);
  EXPECT_EQ(Send("POST", "/api/playground/traffic", R"({"rate":0})", as(basic("wanda", "pw-w"))).status, 403);
  // The admin passes the guard; this server runs no pipeline, so there is no playground at all.
  EXPECT_EQ(Send("POST", "/api/playground/traffic", R"({"rate":0})", as(basic("ada", "pw-a"))).status, 404);
  // The roles' logs likewise: an admin's, not a writer's.
  EXPECT_EQ(Send("GET", "/api/logs/broker", "", {}).status, 401);
  EXPECT_EQ(Send("GET", "/api/logs/broker", "", as(basic("wanda", "pw-w"))).status, 403);
  EXPECT_EQ(Send("GET", "/api/logs/broker", "", as(basic("ada", "pw-a"))).status, 404);
}

}  // namespace
}  // namespace floe::serve

// The Trino protocol's paging against an in-process QueryServer: a retried GET of the final
// page gets the same answer while it lingers, and the query's paging is forgotten after it.
#include "serve/trino_protocol.h"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "net/http_client.h"
#include "serve/query_server.h"
#include "sql/catalog/memory_catalog.h"

namespace floe::serve {
namespace {

class TrinoPagingTest : public ::testing::Test {
 protected:
  void Start(std::chrono::milliseconds linger) {
    catalog_.AddSchema("default");
    QueryServerOptions options;
    options.http_port = 0;
    options.pg_enabled = false;
    options.trino_final_page_linger = linger;
    server_ = std::make_unique<QueryServer>(catalog_, options);
    ASSERT_TRUE(server_->Start().has_value());
  }

  net::HttpResponse Send(std::string method, std::string url, std::string_view body = {}) {
    net::HttpClientRequest request{.method = std::move(method), .url = std::move(url), .body = body};
    request.headers.Set("X-Trino-User", "tester");
    auto response = client_.Send(request);
    EXPECT_TRUE(response.has_value()) << response.error().ToString();
    return response.value_or(net::HttpResponse{});
  }

  // Posts `sql` and follows nextUri to the end; returns the URL of the final page.
  std::string RunToEnd(const std::string& sql, nlohmann::json* final_body) {
    auto answer = nlohmann::json::parse(
        Send("POST", fmt::format("http://127.0.0.1:{}/v1/statement", server_->http_port()), sql).body);
    std::string url;
    while (answer.contains("nextUri")) {
      url = answer["nextUri"];
      answer = nlohmann::json::parse(Send("GET", url).body);
    }
    *final_body = answer;
    return url;
  }

  sql::MemoryCatalog catalog_;
  std::unique_ptr<QueryServer> server_;
  net::HttpClient client_;
};

TEST_F(TrinoPagingTest, ARetriedFinalPageGetsTheSameAnswerWhileItLingers) {
  Start(std::chrono::seconds(60));
  nlohmann::json final_body;
  std::string url = RunToEnd("SELECT 6 * 7 AS answer", &final_body);
  ASSERT_EQ(final_body["data"], nlohmann::json::parse("[[42]]")) << final_body.dump();
  net::HttpResponse again = Send("GET", url);
  EXPECT_EQ(again.status, 200);
  EXPECT_EQ(nlohmann::json::parse(again.body)["data"], final_body["data"]);
}

TEST_F(TrinoPagingTest, TheFinalPageIsForgottenAfterItsLinger) {
  Start(std::chrono::milliseconds(0));
  nlohmann::json final_body;
  std::string url = RunToEnd("SELECT 6 * 7 AS answer", &final_body);
  ASSERT_EQ(final_body["data"], nlohmann::json::parse("[[42]]")) << final_body.dump();
  EXPECT_EQ(Send("GET", url).status, 404);
  // The query itself is still known to the server's query list.
  std::string id = final_body["id"];
  EXPECT_EQ(Send("GET", fmt::format("http://127.0.0.1:{}/v1/query/{}", server_->http_port(), id)).status, 200);
}

}  // namespace
}  // namespace floe::serve

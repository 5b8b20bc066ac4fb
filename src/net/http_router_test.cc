#include "net/http_router.h"

#include <gtest/gtest.h>

namespace floe::net {
namespace {

HttpHandler Named(std::string name) {
  return [name](HttpRequest& r) {
    std::string body = name;
    for (auto& [k, v] : r.path_params) body += fmt::format(" {}={}", k, v);
    return HttpResponse::Text(200, body);
  };
}

HttpResponse Call(const HttpRouter& router, std::string method, std::string path) {
  HttpRequest r{.method = std::move(method), .path = std::move(path)};
  return router.Dispatch(r);
}

TEST(HttpRouter, MatchesLiteralsAndDecodesCaptures) {
  HttpRouter router;
  ASSERT_TRUE(router.Add("GET", "/v1/config", Named("config")));
  ASSERT_TRUE(router.Add("GET", "/v1/namespaces/{namespace}/tables/{table}", Named("load")));
  ASSERT_TRUE(router.Add("DELETE", "/v1/namespaces/{namespace}/tables/{table}", Named("drop")));
  EXPECT_EQ(Call(router, "GET", "/v1/config").body, "config");
  EXPECT_EQ(Call(router, "GET", "/v1/namespaces/a%1Fb/tables/t%20x").body, "load namespace=a\x1f" "b table=t x");
  EXPECT_EQ(Call(router, "DELETE", "/v1/namespaces/n/tables/t").body, "drop namespace=n table=t");
}

TEST(HttpRouter, AnswersNotFoundAndMethodNotAllowed) {
  HttpRouter router;
  ASSERT_TRUE(router.Add("GET", "/a/{x}", Named("a")));
  ASSERT_TRUE(router.Add("POST", "/a/{x}", Named("a")));
  EXPECT_EQ(Call(router, "GET", "/b").status, 404);
  EXPECT_EQ(Call(router, "GET", "/a").status, 404);
  EXPECT_EQ(Call(router, "GET", "/a/").status, 404);  // An empty segment is no capture.
  EXPECT_EQ(Call(router, "GET", "/a/1/2").status, 404);
  auto r = Call(router, "PUT", "/a/1");
  EXPECT_EQ(r.status, 405);
  EXPECT_EQ(r.headers.Get("Allow").value(), "GET, POST");
  EXPECT_EQ(Call(router, "GET", "/a/%zz").status, 404);  // Undecodable capture.
}

TEST(HttpRouter, MostLiteralRouteWinsThenFirstAdded) {
  HttpRouter router;
  ASSERT_TRUE(router.Add("GET", "/v1/{prefix}/namespaces", Named("prefixed")));
  ASSERT_TRUE(router.Add("GET", "/v1/config/namespaces", Named("literal")));
  ASSERT_TRUE(router.Add("GET", "/x/{a}", Named("first")));
  ASSERT_TRUE(router.Add("GET", "/x/{b}", Named("second")));
  EXPECT_EQ(Call(router, "GET", "/v1/config/namespaces").body, "literal");
  EXPECT_EQ(Call(router, "GET", "/v1/wh/namespaces").body, "prefixed prefix=wh");
  EXPECT_EQ(Call(router, "GET", "/x/1").body, "first a=1");
}

TEST(HttpRouter, RestCaptureTakesTheRemainingPath) {
  HttpRouter router;
  ASSERT_TRUE(router.Add("GET", "/static/{path*}", Named("static")));
  EXPECT_EQ(Call(router, "GET", "/static/js/app.js").body, "static path=js/app.js");
  EXPECT_EQ(Call(router, "GET", "/static/").body, "static path=");
  EXPECT_EQ(Call(router, "GET", "/static").status, 404);
}

TEST(HttpRouter, HeadFallsBackToGet) {
  HttpRouter router;
  ASSERT_TRUE(router.Add("GET", "/metrics", Named("metrics")));
  EXPECT_EQ(Call(router, "HEAD", "/metrics").body, "metrics");
}

TEST(HttpRouter, RefusesBadPatterns) {
  HttpRouter router;
  EXPECT_FALSE(router.Add("GET", "", Named("x")));
  EXPECT_FALSE(router.Add("GET", "nope", Named("x")));
  EXPECT_FALSE(router.Add("GET", "/a/{}", Named("x")));
  EXPECT_FALSE(router.Add("GET", "/a/{rest*}/b", Named("x")));
  EXPECT_FALSE(router.Add("GET", "/a/x{y}", Named("x")));
}

}  // namespace
}  // namespace floe::net

#include "net/http_server.h"


#include <future>
#include <thread>

#include <gtest/gtest.h>

#include "net/http_client.h"
#include "net/scripted_server.h"
#include "io/test_folder.h"
#include "support/loopback_connection.h"
#include "support/run_process.h"
#include "support/test_certificate.h"

namespace floe::net {
namespace {

// A raw TCP client, for bytes no well-behaved client would send.
using RawConnection = ::floe::testing::LoopbackConnection;

// Reads from `conn` until `marker` has arrived `count` times (or the peer closes).
std::string ReadUntil(RawConnection& conn, std::string_view marker, int count) {
  std::string out;
  auto occurrences = [&] {
    int c = 0;
    for (size_t p = out.find(marker); p != std::string::npos; p = out.find(marker, p + 1)) c++;
    return c;
  };
  while (occurrences() < count && conn.ReadSome(&out)) {
  }
  return out;
}

HttpRouter TestRouter() {
  HttpRouter router;
  (void)router.Add("GET", "/hello/{name}", [](HttpRequest& r) {
    return HttpResponse::Text(200, fmt::format("hello {}", r.Param("name")));
  });
  (void)router.Add("POST", "/echo", [](HttpRequest& r) {
    HttpResponse resp = HttpResponse::Text(200, r.body);
    resp.headers.Set("X-Query", r.Query("q").value_or(""));
    resp.headers.Set("X-Header", r.headers.Get("X-Test").value_or(""));
    return resp;
  });
  (void)router.Add("PUT", "/echo", [](HttpRequest& r) { return HttpResponse::Text(201, r.body); });
  (void)router.Add("DELETE", "/thing", [](HttpRequest&) { return HttpResponse{.status = 204}; });
  (void)router.Add("GET", "/ok", [](HttpRequest&) { return HttpResponse::Text(200, "ok"); });
  (void)router.Add("GET", "/throws", [](HttpRequest&) -> HttpResponse { throw std::runtime_error("boom"); });
  (void)router.Add("GET", "/big", [](HttpRequest&) { return HttpResponse::Text(200, std::string(100000, 'b')); });
  return router;
}

class HttpServerTest : public ::testing::Test {
 protected:
  void SetUp() override { StartWith(TestRouter()); }
  void StartWith(HttpRouter router, HttpServerOptions options = {}) {
    if (server_) server_->Stop();
    options.max_body_bytes = 1 << 20;
    options.max_header_bytes = 8 << 10;
    server_ = std::make_unique<HttpServer>(options, std::move(router));
    Status st = server_->Start();
    ASSERT_TRUE(st) << st.error().ToString();
    ASSERT_NE(server_->port(), 0);
    base_ = fmt::format("http://127.0.0.1:{}", server_->port());
  }
  Result<HttpResponse> Send(std::string method, std::string path, std::string_view body = {}) {
    return client_.Send({.method = std::move(method), .url = base_ + path, .body = body});
  }
  std::unique_ptr<HttpServer> server_;
  HttpClient client_;
  std::string base_;
};

TEST_F(HttpServerTest, RoutesMethodsAndCarriesBodiesHeadersAndQueries) {
  auto hello = Send("GET", "/hello/w%20orld");
  ASSERT_TRUE(hello) << hello.error().ToString();
  EXPECT_EQ(hello->status, 200);
  EXPECT_EQ(hello->body, "hello w orld");
  EXPECT_EQ(hello->headers.Get("Server").value(), "floe");

  HttpClientRequest post{.method = "POST", .url = base_ + "/echo?q=a%26b", .body = "payload"};
  post.headers.Set("X-Test", "yes");
  auto echo = client_.Send(post);
  ASSERT_TRUE(echo);
  EXPECT_EQ(echo->body, "payload");
  EXPECT_EQ(echo->headers.Get("X-Query").value(), "a&b");
  EXPECT_EQ(echo->headers.Get("x-header").value(), "yes");

  std::string large(700000, 'z');
  auto put = Send("PUT", "/echo", large);
  ASSERT_TRUE(put);
  EXPECT_EQ(put->status, 201);
  EXPECT_EQ(put->body.size(), large.size());

  EXPECT_EQ(Send("DELETE", "/thing")->status, 204);
  EXPECT_EQ(Send("GET", "/nope")->status, 404);
  EXPECT_EQ(Send("PATCH", "/echo")->status, 405);
  EXPECT_EQ(Send("GET", "/throws")->status, 500);
  auto head = Send("HEAD", "/big");
  ASSERT_TRUE(head);
  EXPECT_EQ(head->status, 200);
  EXPECT_EQ(head->headers.Get("Content-Length").value(), "100000");
  EXPECT_TRUE(head->body.empty());
}

TEST_F(HttpServerTest, KeepsConnectionsAliveAcrossRequests) {
  RawConnection conn(server_->port());
  ASSERT_TRUE(conn.connected());
  conn.Send("GET /ok HTTP/1.1\r\nHost: x\r\n\r\nGET /ok HTTP/1.1\r\nHost: x\r\n\r\n");
  std::string replies = ReadUntil(conn, "\r\n\r\nok", 2);
  EXPECT_EQ(replies.find("HTTP/1.1 200 OK"), 0u);
  EXPECT_NE(replies.find("HTTP/1.1 200 OK", 10), std::string::npos);
  conn.Send("GET /ok HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n");
  std::string last = conn.ReadAll();  // The server closes after answering.
  EXPECT_NE(last.find("200 OK"), std::string::npos);
}

TEST_F(HttpServerTest, OversizeBodyGets413AndOversizeHeaders431) {
  RawConnection body(server_->port());
  body.Send("POST /echo HTTP/1.1\r\nHost: x\r\nContent-Length: 2000000\r\n\r\n");
  EXPECT_EQ(body.ReadAll().substr(0, 12), "HTTP/1.1 413");

  RawConnection chunked(server_->port());
  chunked.Send("POST /echo HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\n");
  std::string chunk = fmt::format("{:x}\r\n{}\r\n", 600000, std::string(600000, 'c'));
  chunked.Send(chunk);
  chunked.Send(chunk);
  EXPECT_EQ(chunked.ReadAll().substr(0, 12), "HTTP/1.1 413");

  RawConnection headers(server_->port());
  headers.Send("GET /ok HTTP/1.1\r\nHost: x\r\nX-Big: " + std::string(20000, 'h') + "\r\n\r\n");
  EXPECT_EQ(headers.ReadAll().substr(0, 12), "HTTP/1.1 431");

  EXPECT_EQ(Send("GET", "/ok")->status, 200);  // The server is unharmed.
}

TEST_F(HttpServerTest, TheGuardRefusesBeforeTheBodyIsRead) {
  HttpRouter router = TestRouter();
  std::atomic<int> handled{0};
  (void)router.Add("POST", "/upload", [&handled](HttpRequest& r) {
    ++handled;
    return HttpResponse::Text(200, std::to_string(r.body.size()));
  });
  router.SetGuard([](const HttpRequest& r) -> std::optional<HttpResponse> {
    if (r.headers.Get("Authorization") != "Bearer good") return HttpResponse::Text(401, "who are you\n");
    return std::nullopt;
  });
  StartWith(std::move(router));
  // An unauthenticated client announcing a body within the limit and then sending only part
  // of it: the answer is 401 at once and the connection ends, instead of the server waiting
  // for (and buffering) the body.
  RawConnection stranger(server_->port());
  stranger.SetReceiveTimeout(std::chrono::milliseconds(10'000));
  ASSERT_TRUE(stranger.Send("POST /upload HTTP/1.1\r\nHost: x\r\nContent-Length: 1000000\r\n\r\n" + std::string(1000, 'x')));
  auto start = std::chrono::steady_clock::now();
  std::string answer = stranger.ReadAll();
  EXPECT_LT(std::chrono::steady_clock::now() - start, std::chrono::seconds(5));
  EXPECT_EQ(answer.substr(0, 12), "HTTP/1.1 401") << answer;
  EXPECT_NE(answer.find("Connection: close"), std::string::npos) << answer;
  EXPECT_EQ(handled.load(), 0);

  // With credentials the body is read and handled as before.
  RawConnection member(server_->port());
  ASSERT_TRUE(member.Send("POST /upload HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer good\r\nContent-Length: 5\r\n"
                          "Connection: close\r\n\r\nhello"));
  answer = member.ReadAll();
  EXPECT_EQ(answer.substr(0, 12), "HTTP/1.1 200") << answer;
  EXPECT_EQ(handled.load(), 1);
}

TEST_F(HttpServerTest, ConnectionsPastTheCapAreClosed) {
  HttpServerOptions options;
  options.max_connections = 2;
  StartWith(TestRouter(), options);
  RawConnection first(server_->port()), second(server_->port());
  ASSERT_TRUE(first.Send("GET /ok HTTP/1.1\r\nHost: x\r\n\r\n"));
  ASSERT_TRUE(second.Send("GET /ok HTTP/1.1\r\nHost: x\r\n\r\n"));
  EXPECT_NE(ReadUntil(first, "ok", 1).find("200"), std::string::npos);
  EXPECT_NE(ReadUntil(second, "ok", 1).find("200"), std::string::npos);
  RawConnection third(server_->port());
  third.SetReceiveTimeout(std::chrono::milliseconds(10'000));
  third.Send("GET /ok HTTP/1.1\r\nHost: x\r\n\r\n");
  auto start = std::chrono::steady_clock::now();
  EXPECT_EQ(third.ReadAll(), "");
  EXPECT_LT(std::chrono::steady_clock::now() - start, std::chrono::seconds(5));
}

TEST_F(HttpServerTest, GarbageAndTruncatedRequestsCloseOnlyTheirConnection) {
  std::vector<std::string> garbage = {
      "\x16\x03\x01\x02\x00\x01\x00\x01\xfc\x03\x03 TLS hello\r\n\r\n",
      "NOT HTTP AT ALL\r\n\r\n",
      "GET /ok HTTP/9.9\r\n\r\n",
      "GET /ok HTTP/1.1\r\nBad Header Line\r\n\r\n",
      "GET /ok HTTP/1.1\r\nContent-Length: -5\r\n\r\n",
      "GET /ok HTTP/1.1\r\nContent-Length: 5\r\nContent-Length: 6\r\n\r\n",
      "POST /echo HTTP/1.1\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\n",
      std::string("GET /o\0k HTTP/1.1\r\n\r\n", 22),
      "GET ok HTTP/1.1\r\nHost: x\r\n\r\n",
  };
  for (const std::string& bytes : garbage) {
    RawConnection conn(server_->port());
    conn.Send(bytes);
    conn.ShutdownWrite();
    std::string reply = conn.ReadAll();
    EXPECT_TRUE(reply.empty() || reply.starts_with("HTTP/1.1 400")) << bytes << " -> " << reply;
  }
  // Truncated: a request cut off anywhere, then the connection closed.
  std::string full = "POST /echo HTTP/1.1\r\nHost: x\r\nContent-Length: 10\r\n\r\n0123456789";
  for (size_t cut = 1; cut < full.size(); cut += 3) {
    RawConnection conn(server_->port());
    conn.Send(full.substr(0, cut));
    conn.ShutdownWrite();
    std::string reply = conn.ReadAll();
    EXPECT_FALSE(reply.starts_with("HTTP/1.1 200")) << cut;
  }
  auto ok = Send("GET", "/ok");
  ASSERT_TRUE(ok);
  EXPECT_EQ(ok->status, 200);
}

TEST_F(HttpServerTest, AForeignClientTalksToIt) {
  auto out = floe::testing::RunProcess({"/usr/bin/curl", "-sS", "-X", "POST", "--data-binary", "from curl",
                                  base_ + "/echo?q=1", "-D", "-"});
  ASSERT_EQ(out.exit_code, 0) << out.err;
  EXPECT_NE(out.out.find("HTTP/1.1 200"), std::string::npos) << out.out;
  EXPECT_NE(out.out.find("from curl"), std::string::npos) << out.out;
}

// HTTPS: curl (Debian) trusting the test certificate gets answers; one that does not trust
// it, and plain HTTP to the TLS port, get none; a bad certificate or key fails Start clearly.
TEST_F(HttpServerTest, ServesHttpsWithAConfiguredCertificate) {
  std::string folder = io::testing::FreshFolder();
  auto cert = floe::testing::MakeTestCertificate(folder);
  ASSERT_TRUE(cert.error.empty()) << cert.error;
  HttpServerOptions options;
  options.tls = TlsFiles{cert.cert_file, cert.key_file};
  StartWith(TestRouter(), options);
  std::string https = fmt::format("https://127.0.0.1:{}", server_->port());
  auto trusted = floe::testing::RunProcess({"/usr/bin/curl", "-sS", "--cacert", cert.cert_file, "-X", "POST", "--data-binary",
                                            "over tls", https + "/echo?q=2", "-D", "-"});
  ASSERT_EQ(trusted.exit_code, 0) << trusted.err;
  EXPECT_NE(trusted.out.find("HTTP/1.1 200"), std::string::npos) << trusted.out;
  EXPECT_NE(trusted.out.find("over tls"), std::string::npos) << trusted.out;
  auto untrusted = floe::testing::RunProcess({"/usr/bin/curl", "-sS", https + "/ok"});
  EXPECT_NE(untrusted.exit_code, 0) << untrusted.out;
  auto plain = floe::testing::RunProcess({"/usr/bin/curl", "-sS", "--max-time", "5", base_ + "/ok"});
  EXPECT_EQ(plain.out.find("ok"), std::string::npos) << plain.out;
  // The server still answers after the failed handshakes.
  trusted = floe::testing::RunProcess({"/usr/bin/curl", "-sS", "--cacert", cert.cert_file, https + "/hello/tls"});
  EXPECT_EQ(trusted.out, "hello tls");

  HttpServer missing({.tls = TlsFiles{folder + "/nope.pem", cert.key_file}}, HttpRouter());
  Status st = missing.Start();
  ASSERT_FALSE(st);
  EXPECT_NE(st.error().message().find("nope.pem"), std::string::npos) << st.error().ToString();
  HttpServer mismatched({.tls = TlsFiles{cert.cert_file, cert.cert_file}}, HttpRouter());
  EXPECT_FALSE(mismatched.Start());
}

TEST_F(HttpServerTest, GracefulStopFinishesRequestsInFlight) {
  std::promise<void> entered, release;
  std::shared_future<void> release_future = release.get_future().share();
  HttpRouter router;
  (void)router.Add("GET", "/slow", [&](HttpRequest&) {
    entered.set_value();
    release_future.wait();
    return HttpResponse::Text(200, "finished");
  });
  StartWith(std::move(router));
  RawConnection idle(server_->port());  // An idle kept-alive connection must not hold up Stop.
  ASSERT_TRUE(idle.connected());
  auto response = std::async(std::launch::async, [&] { return Send("GET", "/slow"); });
  entered.get_future().wait();
  std::thread stopper([&] { server_->Stop(std::chrono::milliseconds(30000)); });
  // Release the handler only once the server has stopped accepting, so it answers while stopping.
  for (int i = 0; i < 10000 && RawConnection(server_->port()).connected(); ++i) {
    std::this_thread::sleep_for(std::chrono::milliseconds(1));
  }
  release.set_value();
  auto r = response.get();
  stopper.join();
  ASSERT_TRUE(r) << r.error().ToString();
  EXPECT_EQ(r->body, "finished");
  EXPECT_EQ(r->headers.Get("Connection").value_or(""), "close");
  EXPECT_EQ(idle.ReadAll(), "");
  auto after = Send("GET", "/slow");
  ASSERT_FALSE(after);
  EXPECT_EQ(after.error().kind(), ErrorKind::kUnavailable);
}

TEST_F(HttpServerTest, PortInUseIsAClearError) {
  HttpServer second({.port = server_->port()}, HttpRouter());
  Status st = second.Start();
  ASSERT_FALSE(st);
  EXPECT_NE(st.error().message().find(std::to_string(server_->port())), std::string::npos);
}

TEST(HttpClient, RefusedConnectionIsUnavailable) {
  uint16_t port;
  {
    HttpServer probe({}, HttpRouter());
    ASSERT_TRUE(probe.Start());
    port = probe.port();
  }
  HttpClient client;
  auto r = client.Send({.url = fmt::format("http://127.0.0.1:{}/", port)});
  ASSERT_FALSE(r);
  EXPECT_EQ(r.error().kind(), ErrorKind::kUnavailable);
  EXPECT_NE(r.error().message().find(std::to_string(port)), std::string::npos);
}

TEST(HttpClient, StalledResponseTimesOut) {
  std::promise<void> release;
  std::shared_future<void> released = release.get_future().share();
  HttpRouter router;
  (void)router.Add("GET", "/stall", [&](HttpRequest&) {
    released.wait();
    return HttpResponse::Text(200, "late");
  });
  HttpServer server({}, std::move(router));
  ASSERT_TRUE(server.Start());
  HttpClient client({.read_timeout = std::chrono::milliseconds(1000)});
  auto r = client.Send({.url = fmt::format("http://127.0.0.1:{}/stall", server.port())});
  release.set_value();
  ASSERT_FALSE(r);
  EXPECT_EQ(r.error().kind(), ErrorKind::kUnavailable);
}

TEST(HttpClient, OversizeResponseIsRefused) {
  HttpServer server({}, TestRouter());
  ASSERT_TRUE(server.Start());
  HttpClient client({.max_response_bytes = 1000});
  auto r = client.Send({.url = fmt::format("http://127.0.0.1:{}/big", server.port())});
  ASSERT_FALSE(r);
  EXPECT_EQ(r.error().kind(), ErrorKind::kResourceExhausted);
  EXPECT_TRUE(client.Send({.url = fmt::format("http://127.0.0.1:{}/ok", server.port())}));
}

TEST(HttpClient, MalformedUrlIsInvalid) {
  HttpClient client;
  auto r = client.Send({.url = "nope://x"});
  ASSERT_FALSE(r);
  EXPECT_EQ(r.error().kind(), ErrorKind::kInvalidArgument);
}

}  // namespace
}  // namespace floe::net

namespace floe::net {
namespace {

using testing::ScriptedServer;

TEST(HttpClient, GarbageTruncatedAndOversizeResponsesAreErrorsNotCrashes) {
  HttpClientOptions options{.read_timeout = std::chrono::milliseconds(2000), .max_response_bytes = 1 << 20};
  std::vector<std::string> replies = {
      "",                                                              // closed without a word
      "garbage garbage\r\n\r\n",                                       // not HTTP
      "HTTP/1.1 200 OK\r\nContent-Length: 100\r\n\r\nonly ten..",     // truncated body
      "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\n",  // bad chunk
      "HTTP/1.1 200 OK\r\nContent-Len",                                // truncated header
      "HTTP/1.1 200 OK\r\nContent-Length: 5000000\r\n\r\n" + std::string(2 << 20, 'x'),  // over the limit
  };
  for (const std::string& reply : replies) {
    ScriptedServer server(reply);
    HttpClient client(options);
    auto r = client.Send({.url = server.url()});
    ASSERT_FALSE(r) << reply.substr(0, 60);
    EXPECT_TRUE(r.error().kind() == ErrorKind::kUnavailable || r.error().kind() == ErrorKind::kResourceExhausted ||
                r.error().kind() == ErrorKind::kCorruption)
        << r.error().ToString();
  }
  // A short but complete answer still works.
  ScriptedServer fine("HTTP/1.1 204 No Content\r\nX-Odd:   spaced value  \r\n\r\n");
  HttpClient client(options);
  auto r = client.Send({.url = fine.url()});
  ASSERT_TRUE(r) << r.error().ToString();
  EXPECT_EQ(r->status, 204);
  EXPECT_EQ(r->headers.Get("X-Odd").value_or(""), "spaced value");
}

}  // namespace
}  // namespace floe::net

// The S3 store against a scripted fake server (floe's own HTTP server), for what a real server
// will not do on demand: fail, throttle, refuse credentials, lose acknowledgements, answer
// garbage. tests/interop/io runs the full conformance suite against s3rver.
#include "io/s3_object_store.h"

#include <atomic>
#include <mutex>

#include <gtest/gtest.h>

#include "net/http_server.h"
#include "net/scripted_server.h"
#include "support/run_process.h"

namespace floe::io {
namespace {

using net::HttpRequest;
using net::HttpResponse;

class FakeS3 {
 public:
  using Script = std::function<HttpResponse(HttpRequest&, int call)>;

  FakeS3() {
    net::HttpRouter router;
    for (std::string method : {"GET", "PUT", "POST", "DELETE", "HEAD"}) {
      (void)router.Add(method, "/{path*}", [this](HttpRequest& r) {
        std::lock_guard lock(mu_);
        requests_.push_back(r);
        return script_(r, calls_++);
      });
    }
    server_ = std::make_unique<net::HttpServer>(net::HttpServerOptions{}, std::move(router));
    EXPECT_TRUE(server_->Start());
  }

  void SetScript(Script script) {
    std::lock_guard lock(mu_);
    script_ = std::move(script);
    calls_ = 0;
    requests_.clear();
  }
  std::vector<HttpRequest> requests() {
    std::lock_guard lock(mu_);
    return requests_;
  }
  int calls() {
    std::lock_guard lock(mu_);
    return calls_;
  }

  std::unique_ptr<S3ObjectStore> Store(std::string prefix = "pre/") {
    S3Options options;
    options.bucket = "bkt";
    options.prefix = std::move(prefix);
    options.endpoint = fmt::format("http://127.0.0.1:{}", server_->port());
    options.path_style = true;
    options.credentials = {"AKID", "SECRET", "TOKEN"};
    options.base_backoff = std::chrono::milliseconds(1);
    options.max_backoff = std::chrono::milliseconds(2);
    options.max_attempts = 4;
    return S3ObjectStore::Open(options).value();
  }

 private:
  std::mutex mu_;
  Script script_ = [](HttpRequest&, int) { return HttpResponse{.status = 200}; };
  int calls_ = 0;
  std::vector<HttpRequest> requests_;
  std::unique_ptr<net::HttpServer> server_;
};

HttpResponse S3Error(int status, std::string_view code, std::string_view message) {
  return HttpResponse{.status = status,
                      .body = fmt::format("<?xml version=\"1.0\"?><Error><Code>{}</Code><Message>{}</Message></Error>",
                                          code, message)};
}

TEST(S3ObjectStore, SignsWithSessionTokenAndAddressesPathStyle) {
  FakeS3 fake;
  fake.SetScript([](HttpRequest&, int) { return HttpResponse{.status = 200, .body = "data"}; });
  auto store = fake.Store();
  EXPECT_EQ(store->Get("a b/c+d").value(), "data");
  auto requests = fake.requests();
  ASSERT_EQ(requests.size(), 1u);
  EXPECT_EQ(requests[0].target, "/bkt/pre/a%20b/c%2Bd");
  EXPECT_EQ(requests[0].headers.Get("x-amz-security-token").value(), "TOKEN");
  EXPECT_TRUE(requests[0].headers.Get("x-amz-date"));
  std::string auth(requests[0].headers.Get("Authorization").value());
  EXPECT_TRUE(auth.starts_with("AWS4-HMAC-SHA256 Credential=AKID/")) << auth;
  EXPECT_NE(auth.find("/us-east-1/s3/aws4_request"), std::string::npos);
  EXPECT_NE(auth.find("SignedHeaders=host;x-amz-content-sha256;x-amz-date;x-amz-security-token"), std::string::npos)
      << auth;
}

TEST(S3ObjectStore, RetriesServerErrorsAndThrottlingThenSucceeds) {
  FakeS3 fake;
  fake.SetScript([](HttpRequest&, int call) {
    if (call == 0) return S3Error(503, "SlowDown", "Please reduce your request rate.");
    if (call == 1) return S3Error(500, "InternalError", "oops");
    return HttpResponse{.status = 200};
  });
  auto store = fake.Store();
  Status st = store->Put("k", "v");
  ASSERT_TRUE(st) << st.error().ToString();
  EXPECT_EQ(fake.calls(), 3);
  // Every attempt carried the same body and a signature.
  for (auto& r : fake.requests()) {
    EXPECT_EQ(r.body, "v");
    EXPECT_TRUE(r.headers.Has("Authorization"));
  }
}

TEST(S3ObjectStore, GivesUpAfterMaxAttemptsWithAClearError) {
  FakeS3 fake;
  fake.SetScript([](HttpRequest&, int) { return S3Error(503, "SlowDown", "slow down"); });
  auto store = fake.Store();
  auto r = store->Get("k");
  ASSERT_FALSE(r);
  EXPECT_EQ(r.error().kind(), ErrorKind::kUnavailable);
  EXPECT_EQ(fake.calls(), 4);
  EXPECT_NE(r.error().message().find("s3://bkt/pre/k"), std::string::npos) << r.error().message();
  EXPECT_NE(r.error().message().find("4 attempts"), std::string::npos) << r.error().message();
}

TEST(S3ObjectStore, RefusedCredentialsNameTheBucketAndKey) {
  FakeS3 fake;
  fake.SetScript([](HttpRequest&, int) {
    return S3Error(403, "SignatureDoesNotMatch", "The request signature we calculated does not match");
  });
  auto r = fake.Store()->Get("db/t/v1.json");
  ASSERT_FALSE(r);
  EXPECT_EQ(r.error().kind(), ErrorKind::kUnauthenticated);
  EXPECT_NE(r.error().message().find("s3://bkt/pre/db/t/v1.json"), std::string::npos) << r.error().message();
  EXPECT_NE(r.error().message().find("credentials or signature were refused"), std::string::npos);
  EXPECT_NE(r.error().message().find("SignatureDoesNotMatch"), std::string::npos);
  EXPECT_EQ(fake.calls(), 1);  // Not retried.

  fake.SetScript([](HttpRequest&, int) { return S3Error(403, "AccessDenied", "Access Denied"); });
  auto denied = fake.Store()->Get("x");
  ASSERT_FALSE(denied);
  EXPECT_EQ(denied.error().kind(), ErrorKind::kPermissionDenied);

  fake.SetScript([](HttpRequest&, int) { return HttpResponse{.status = 403}; });  // HEAD: no body.
  auto head = fake.Store()->Head("x");
  ASSERT_FALSE(head);
  EXPECT_EQ(head.error().kind(), ErrorKind::kUnauthenticated);
}

TEST(S3ObjectStore, NotFoundDistinguishesBucketFromKey) {
  FakeS3 fake;
  fake.SetScript([](HttpRequest&, int) { return S3Error(404, "NoSuchBucket", "The specified bucket does not exist"); });
  auto r = fake.Store()->Get("x");
  ASSERT_FALSE(r);
  EXPECT_EQ(r.error().kind(), ErrorKind::kNotFound);
  EXPECT_NE(r.error().message().find("bucket 'bkt' does not exist"), std::string::npos);
  fake.SetScript([](HttpRequest&, int) { return S3Error(404, "NoSuchKey", "no"); });
  EXPECT_TRUE(fake.Store()->Delete("x"));  // Deleting a missing key succeeds.
}

TEST(S3ObjectStore, PutIfAbsentSendsIfNoneMatchAndMapsPreconditionFailed) {
  FakeS3 fake;
  fake.SetScript([](HttpRequest& r, int) {
    EXPECT_EQ(r.headers.Get("If-None-Match").value_or(""), "*");
    return S3Error(412, "PreconditionFailed", "At least one of the pre-conditions you specified did not hold");
  });
  Status st = fake.Store()->PutIfAbsent("v1.metadata.json", "m");
  ASSERT_FALSE(st);
  EXPECT_EQ(st.error().kind(), ErrorKind::kAlreadyExists);
}

TEST(S3ObjectStore, PutIfAbsentWhoseAnswerWasLostStillSucceeds) {
  FakeS3 fake;
  std::string stored;
  fake.SetScript([&](HttpRequest& r, int call) {
    if (r.method == "PUT" && call == 0) {
      stored = r.body;  // Written, but the answer is lost.
      return S3Error(500, "InternalError", "lost");
    }
    if (r.method == "PUT") return S3Error(412, "PreconditionFailed", "exists");
    return HttpResponse{.status = 200, .body = stored};
  });
  Status st = fake.Store()->PutIfAbsent("v2.metadata.json", "ours");
  EXPECT_TRUE(st) << st.error().ToString();
  // But someone else's object is still a conflict.
  fake.SetScript([&](HttpRequest& r, int call) {
    if (r.method == "PUT" && call == 0) return S3Error(500, "InternalError", "lost");
    if (r.method == "PUT") return S3Error(412, "PreconditionFailed", "exists");
    return HttpResponse{.status = 200, .body = "theirs"};
  });
  EXPECT_EQ(fake.Store()->PutIfAbsent("v2.metadata.json", "ours").error().kind(), ErrorKind::kAlreadyExists);
}

TEST(S3ObjectStore, RangedReadsCheckWhatTheServerSent) {
  FakeS3 fake;
  fake.SetScript([](HttpRequest& r, int) {
    EXPECT_EQ(r.headers.Get("Range").value_or(""), "bytes=2-5");
    HttpResponse resp{.status = 206, .body = "2345"};
    resp.headers.Set("Content-Range", "bytes 2-5/10");
    return resp;
  });
  EXPECT_EQ(fake.Store()->GetRange("k", 2, 4).value(), "2345");
  fake.SetScript([](HttpRequest&, int) { return HttpResponse{.status = 200, .body = "0123456789"}; });
  EXPECT_EQ(fake.Store()->GetRange("k", 2, 4).value(), "2345");  // Range ignored: sliced here.
  fake.SetScript([](HttpRequest&, int) {
    HttpResponse resp{.status = 206, .body = "23456789"};  // More than asked, from our offset.
    resp.headers.Set("Content-Range", "bytes 2-9/10");
    return resp;
  });
  EXPECT_EQ(fake.Store()->GetRange("k", 2, 4).value(), "2345");
  fake.SetScript([](HttpRequest&, int) {
    HttpResponse resp{.status = 206, .body = "01234567"};  // More than asked, from elsewhere.
    resp.headers.Set("Content-Range", "bytes 0-7/10");
    return resp;
  });
  EXPECT_EQ(fake.Store()->GetRange("k", 2, 4).error().kind(), ErrorKind::kCorruption);
  fake.SetScript([](HttpRequest&, int) { return HttpResponse{.status = 206, .body = "23"}; });
  EXPECT_EQ(fake.Store()->GetRange("k", 2, 4).error().kind(), ErrorKind::kInvalidArgument);  // Short: past the end.
  fake.SetScript([](HttpRequest&, int) { return S3Error(416, "InvalidRange", "not satisfiable"); });
  EXPECT_EQ(fake.Store()->GetRange("k", 20, 4).error().kind(), ErrorKind::kInvalidArgument);
}

TEST(S3ObjectStore, GarbageAndTruncatedListingsAreCorruption) {
  FakeS3 fake;
  std::string good =
      "<ListBucketResult><IsTruncated>false</IsTruncated><Contents><Key>pre/a</Key><Size>1</Size></Contents>"
      "</ListBucketResult>";
  for (std::string body : {std::string("not xml"), good.substr(0, good.size() / 2), std::string("<Other/>"),
                           std::string("<ListBucketResult><Contents><Key>elsewhere/a</Key><Size>1</Size></Contents></ListBucketResult>")}) {
    fake.SetScript([body](HttpRequest&, int) { return HttpResponse{.status = 200, .body = body}; });
    auto r = fake.Store()->List("", "", std::nullopt);
    ASSERT_FALSE(r) << body;
    EXPECT_EQ(r.error().kind(), ErrorKind::kCorruption) << body;
  }
  fake.SetScript([good](HttpRequest& r, int) {
    EXPECT_EQ(r.Query("list-type").value_or(""), "2");
    EXPECT_EQ(r.Query("prefix").value_or(""), "pre/x");
    return HttpResponse{.status = 200, .body = good};
  });
  auto ok = fake.Store()->List("x", "", std::nullopt);
  ASSERT_TRUE(ok) << ok.error().ToString();
  ASSERT_EQ(ok->objects.size(), 1u);
  EXPECT_EQ(ok->objects[0].key, "a");
}

TEST(S3ObjectStore, HeadRefusesGarbageContentLength) {
  net::testing::ScriptedServer server("HTTP/1.1 200 OK\r\nContent-Length: 12abc\r\nConnection: close\r\n\r\n");
  S3Options options{.bucket = "b", .endpoint = fmt::format("http://127.0.0.1:{}", server.port()), .path_style = true};
  options.max_attempts = 1;
  auto r = S3ObjectStore::Open(options).value()->Head("k");
  ASSERT_FALSE(r);
  EXPECT_TRUE(r.error().kind() == ErrorKind::kCorruption || r.error().kind() == ErrorKind::kUnavailable)
      << r.error().ToString();
}

TEST(S3ObjectStore, DeleteManyReportsPerKeyFailures) {
  FakeS3 fake;
  fake.SetScript([](HttpRequest& r, int) {
    EXPECT_TRUE(r.headers.Has("Content-MD5"));
    EXPECT_EQ(r.target, "/bkt?delete");
    return HttpResponse{.status = 200,
                        .body = "<DeleteResult><Error><Key>pre/b</Key><Code>AccessDenied</Code><Message>no</Message>"
                                "</Error></DeleteResult>"};
  });
  Status st = fake.Store()->DeleteMany({"a", "b"});
  ASSERT_FALSE(st);
  EXPECT_NE(st.error().message().find("pre/b: AccessDenied"), std::string::npos) << st.error().message();
}

TEST(S3ObjectStore, FailedMultipartUploadIsAborted) {
  FakeS3 fake;
  fake.SetScript([](HttpRequest& r, int) {
    if (r.method == "POST" && r.query_string == "uploads") {
      return HttpResponse{.status = 200,
                          .body = "<InitiateMultipartUploadResult><UploadId>U1</UploadId></InitiateMultipartUploadResult>"};
    }
    if (r.method == "PUT") return S3Error(400, "EntityTooSmall", "no");
    return HttpResponse{.status = 204};
  });
  auto store = fake.Store();
  auto out = store->OpenOutput("big").value();
  EXPECT_FALSE(out->Append(std::string(store->options().part_size, 'x')));
  auto requests = fake.requests();
  ASSERT_FALSE(requests.empty());
  EXPECT_EQ(requests.back().method, "DELETE");
  EXPECT_EQ(requests.back().query_string, "uploadId=U1");
}

TEST(S3ObjectStore, UnreachableServerIsUnavailableAfterRetries) {
  uint16_t port;
  {
    net::HttpServer probe({}, net::HttpRouter());
    ASSERT_TRUE(probe.Start());
    port = probe.port();
  }
  S3Options options{.bucket = "b", .endpoint = fmt::format("http://127.0.0.1:{}", port), .path_style = true};
  options.base_backoff = std::chrono::milliseconds(1);
  options.max_attempts = 2;
  auto r = S3ObjectStore::Open(options).value()->Get("k");
  ASSERT_FALSE(r);
  EXPECT_EQ(r.error().kind(), ErrorKind::kUnavailable);
  EXPECT_NE(r.error().message().find("after 2 attempts"), std::string::npos) << r.error().message();
}

TEST(S3Options, ReadsTheStandardVariables) {
  std::map<std::string, std::string> env = {{"AWS_ACCESS_KEY_ID", "id"},
                                            {"AWS_SECRET_ACCESS_KEY", "secret"},
                                            {"AWS_SESSION_TOKEN", "tok"},
                                            {"AWS_REGION", "eu-west-1"}};
  auto lookup = [&](std::string_view name) -> std::optional<std::string> {
    auto it = env.find(std::string(name));
    if (it == env.end()) return std::nullopt;
    return it->second;
  };
  auto o = S3Options::FromUri("s3://bucket/a/b/", lookup).value();
  EXPECT_EQ(o.bucket, "bucket");
  EXPECT_EQ(o.prefix, "a/b/");
  EXPECT_EQ(o.region, "eu-west-1");
  EXPECT_EQ(o.credentials.session_token, "tok");
  EXPECT_FALSE(o.path_style);
  EXPECT_EQ(S3ObjectStore::Open(o).value()->ObjectUrl("k x"), "https://bucket.s3.eu-west-1.amazonaws.com/a/b/k%20x");

  env["AWS_ENDPOINT_URL"] = "http://127.0.0.1:9000";
  o = S3Options::FromUri("s3://bucket", lookup).value();
  EXPECT_TRUE(o.path_style);
  EXPECT_EQ(o.prefix, "");
  EXPECT_EQ(S3ObjectStore::Open(o).value()->ObjectUrl("k"), "http://127.0.0.1:9000/bucket/k");
  EXPECT_EQ(S3ObjectStore::Open(o).value()->Uri("k"), "s3://bucket/k");

  env["AWS_ENDPOINT_URL_S3"] = "http://localhost:1234";
  env["FLOE_S3_PATH_STYLE"] = "false";
  env["FLOE_S3_CONDITIONAL_PUT"] = "false";
  o = S3Options::FromUri("s3://bucket/p", lookup).value();
  EXPECT_EQ(S3ObjectStore::Open(o).value()->ObjectUrl("k"), "http://bucket.localhost:1234/p/k");
  EXPECT_FALSE(o.conditional_put);
  EXPECT_EQ(S3ObjectStore::Open(o).value()->PutIfAbsent("k", "v").error().kind(), ErrorKind::kNotImplemented);

  env.erase("AWS_SECRET_ACCESS_KEY");
  EXPECT_FALSE(S3Options::FromUri("s3://bucket", lookup));
  for (std::string_view bad : {"s3://", "s3:///x", "gs://b", "s3://b/../x", "s3://user@b/x"}) {
    EXPECT_FALSE(S3Options::FromUri(bad, lookup)) << bad;
  }
}

}  // namespace
}  // namespace floe::io

namespace floe::io {
namespace {

// A foreign signer: curl's --aws-sigv4 signs a request to the fake server, and floe's signer,
// given the same method, path, query, headers and date, must produce the same signature.
TEST(SigV4AgainstCurl, SameRequestSameSignature) {
  FakeS3 fake;
  fake.SetScript([](HttpRequest&, int) { return HttpResponse{.status = 200, .body = "x"}; });
  auto store = fake.Store();
  std::string url = store->ObjectUrl("dir/a b.txt") + "?partNumber=2&uploadId=x%2By";
  auto out = floe::testing::RunProcess(
      {"/usr/bin/curl", "-sS", "-f", "--aws-sigv4", "aws:amz:eu-west-1:s3", "--user", "AKIDCURL:curl/secret+key",
       "-H", "x-amz-content-sha256: e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855", url});
  ASSERT_EQ(out.exit_code, 0) << out.err;
  auto requests = fake.requests();
  ASSERT_EQ(requests.size(), 1u);
  const HttpRequest& r = requests[0];
  std::string auth(r.headers.Get("Authorization").value_or(""));
  size_t signed_at = auth.find("SignedHeaders=");
  size_t sig_at = auth.find("Signature=");
  ASSERT_NE(signed_at, std::string::npos) << auth;
  ASSERT_NE(sig_at, std::string::npos) << auth;
  std::string signed_list = auth.substr(signed_at + 14, auth.find(',', signed_at) - signed_at - 14);
  SigV4Request mine{.method = "GET", .canonical_uri = r.path, .payload_hash = std::string(r.headers.Get("x-amz-content-sha256").value())};
  mine.query = net::ParseQuery(r.query_string).value();
  size_t start = 0;
  while (start <= signed_list.size()) {
    size_t end = signed_list.find(';', start);
    std::string name = signed_list.substr(start, end == std::string::npos ? std::string::npos : end - start);
    mine.headers.emplace_back(name, std::string(r.headers.Get(name).value()));
    if (end == std::string::npos) break;
    start = end + 1;
  }
  std::string amz_date(r.headers.Get("x-amz-date").value());
  SigV4Result result = SignV4(mine, {"AKIDCURL", "curl/secret+key", ""}, "eu-west-1", "s3", amz_date);
  EXPECT_EQ(auth.substr(sig_at + 10), result.signature) << "curl: " << auth << "\nfloe canonical request:\n"
                                                        << result.canonical_request;
}

}  // namespace
}  // namespace floe::io

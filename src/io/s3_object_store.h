// S3ObjectStore: the ObjectStore for s3://bucket/prefix URIs, speaking the S3 REST API to AWS
// or any compatible server (MinIO, Ceph, R2, s3rver) with Signature Version 4.
//
// Whole-object writes are single PUTs up to multipart_threshold and multipart uploads above it
// (both atomic on S3); streamed writes switch to a multipart upload once they pass one part. PutIfAbsent is a PUT with "If-None-Match: *". Requests that
// fail with 5xx, throttling or a transport error are retried with exponential backoff and full
// jitter. Errors name the s3:// URI and, for 403, say the credentials or signature were refused.
// Thread-safe: calls share a pool of kept-alive connections. See docs/storage.md.
#pragma once

#include <chrono>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "io/object_store.h"
#include "io/sigv4.h"
#include "net/http_client.h"

namespace floe::io {

struct S3Options {
  std::string bucket;
  std::string prefix;  // "" or ending in '/': "warehouse/"
  std::string region = "us-east-1";
  std::string endpoint;     // "http://127.0.0.1:4568"; empty: AWS's regional endpoint over HTTPS.
  bool path_style = false;  // https://host/bucket/key instead of https://bucket.host/key.
  AwsCredentials credentials;  // Empty access key: requests go unsigned (public buckets).
  // How PutIfAbsent works. kIfNoneMatch: a PUT with If-None-Match: * (AWS since 2024, MinIO,
  // R2). kUnsupported: NotImplemented, for servers that ignore the header. kCheckThenPut: HEAD,
  // then PUT if absent — NOT atomic, only for a single writer against a server without
  // conditional writes (test servers such as s3rver).
  enum class PutIfAbsentMode { kIfNoneMatch, kUnsupported, kCheckThenPut };
  PutIfAbsentMode put_if_absent = PutIfAbsentMode::kIfNoneMatch;
  uint64_t part_size = 8 << 20;  // Multipart part size for streamed writes (S3 minimum 5 MiB).
  // Put of a larger object goes through a multipart upload (parts retried on their own).
  uint64_t multipart_threshold = 64 << 20;
  int max_attempts = 5;
  std::chrono::milliseconds base_backoff{100};
  std::chrono::milliseconds max_backoff{5000};
  net::HttpClientOptions http;

  using EnvLookup = std::function<std::optional<std::string>(std::string_view name)>;
  // Options for `uri` from the standard variables: AWS_ACCESS_KEY_ID, AWS_SECRET_ACCESS_KEY,
  // AWS_SESSION_TOKEN, AWS_REGION (or AWS_DEFAULT_REGION), AWS_ENDPOINT_URL_S3 or
  // AWS_ENDPOINT_URL (which implies path-style addressing), and floe's FLOE_S3_PATH_STYLE
  // (true/false) and FLOE_S3_CONDITIONAL_PUT (true, false or check-then-put) for servers that
  // need them.
  static Result<S3Options> FromUri(std::string_view uri, const EnvLookup& env);
  static Result<S3Options> FromUri(std::string_view uri);  // From the process environment.
};

class S3ObjectStore final : public ObjectStore {
 public:
  static Result<std::unique_ptr<S3ObjectStore>> Open(S3Options options);

  Result<std::string> Get(std::string_view key) override;
  Result<std::string> GetRange(std::string_view key, uint64_t offset, uint64_t length) override;
  Result<ObjectInfo> Head(std::string_view key) override;
  Result<std::unique_ptr<InputFile>> OpenInput(std::string_view key) override;
  Status Put(std::string_view key, std::string_view bytes) override;
  Status PutIfAbsent(std::string_view key, std::string_view bytes) override;
  Result<std::unique_ptr<OutputStream>> OpenOutput(std::string_view key) override;
  Status Delete(std::string_view key) override;
  Status DeleteMany(const std::vector<std::string>& keys) override;
  Result<ListResult> List(std::string_view prefix, std::string_view delimiter,
                          std::optional<std::string> continuation_token, int max_keys = 1000) override;
  std::string Uri(std::string_view key) const override;

  const S3Options& options() const { return options_; }
  // The HTTP URL of `key`, as requests address it (virtual-host or path-style).
  std::string ObjectUrl(std::string_view key) const;

  // One S3 request; `object_key` is the full key in the bucket ("" for bucket-level calls).
  struct Call {
    std::string method;
    std::string object_key;
    std::vector<std::pair<std::string, std::string>> query;
    std::vector<std::pair<std::string, std::string>> headers;
    std::string_view body;
  };
  // Signs, sends and retries `call`; a non-2xx answer becomes an error naming the URI.
  // `attempts`, when given, receives how many times the request was sent.
  Result<net::HttpResponse> Send(const Call& call, int* attempts = nullptr);

  // Range read by full bucket key (InputFiles use it).
  Result<std::string> ReadRange(const std::string& object_key, uint64_t offset, uint64_t length);

 private:
  explicit S3ObjectStore(S3Options options);

  std::string FullKey(std::string_view key) const { return options_.prefix + std::string(key); }
  std::string UriOfFullKey(std::string_view object_key) const;

  S3Options options_;
  std::string scheme_host_;  // "https://bucket.s3.us-east-1.amazonaws.com" or "http://127.0.0.1:4568"
  std::string host_header_;  // "bucket.s3.us-east-1.amazonaws.com" or "127.0.0.1:4568"
  std::string path_base_;    // "/bucket" (path-style) or "" (virtual host).
  net::HttpClient http_;
};

}  // namespace floe::io

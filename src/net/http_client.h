// HttpClient: blocking HTTP/1.1 (and HTTPS) requests on libcurl, with kept-alive connections
// reused across calls, connect/stall/total timeouts and a response size limit. Used by the S3
// store and by clients of floe's HTTP services (REST catalog client, tests).
//
// libcurl rather than Beast on the client side: it brings TLS, proxies and a response parser
// hardened by decades of hostile servers, and is the peer our S3 benchmark measures against
// (docs/http.md). Thread-safe: each call borrows an idle handle (with its open connections)
// from the pool or makes one. Owned by whoever talks to the server, usually one per store.
#pragma once

#include <chrono>
#include <cstdint>
#include <memory>
#include <mutex>
#include <string>
#include <string_view>
#include <vector>

#include "net/http_message.h"

namespace floe::net {

struct HttpClientOptions {
  std::chrono::milliseconds connect_timeout{5'000};
  // A response that delivers no byte for this long fails (rounded up to whole seconds).
  std::chrono::milliseconds read_timeout{30'000};
  // Upper bound on the whole exchange; 0 for none.
  std::chrono::milliseconds total_timeout{0};
  uint64_t max_response_bytes = uint64_t{1} << 31;
  size_t max_idle_handles = 32;
  // PEM certificates trusted for https:// instead of the system's bundle; by default the file
  // SSL_CERT_FILE names (OpenSSL's convention), so a private CA reaches every floe client.
  std::string ca_file = DefaultCaFile();

  static std::string DefaultCaFile();
};

struct HttpClientRequest {
  std::string method = "GET";
  std::string url;  // "http://127.0.0.1:8181/v1/config"
  HttpHeaders headers;
  std::string_view body;  // Borrowed for the duration of Send.
};

class HttpClient {
 public:
  explicit HttpClient(HttpClientOptions options = {});
  ~HttpClient();
  HttpClient(const HttpClient&) = delete;
  HttpClient& operator=(const HttpClient&) = delete;

  // Any HTTP status is a successful exchange; errors are transport failures: kUnavailable for
  // refused connections and timeouts (retryable), kResourceExhausted for an oversize response,
  // kCorruption for an answer that is not HTTP or ends inside its header, kInvalidArgument for a
  // malformed URL.
  Result<HttpResponse> Send(const HttpClientRequest& request);

 private:
  void* Acquire();
  void Release(void* handle);

  HttpClientOptions options_;
  std::mutex mu_;
  std::vector<void*> idle_;  // CURL* easy handles; guarded by mu_.
};

}  // namespace floe::net

// HTTP requests and responses as plain values, shared by the server (Beast) and the client
// (libcurl) so that no caller includes either library. Immutable once handed over; safe to
// read from any thread.
#pragma once

#include <chrono>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "base/result.h"

namespace floe::net {

// Header fields in arrival order; names compare case-insensitively.
class HttpHeaders {
 public:
  // The first value of `name`, if present.
  std::optional<std::string_view> Get(std::string_view name) const;
  // Replaces every value of `name` with `value`.
  void Set(std::string_view name, std::string_view value);
  void Add(std::string_view name, std::string_view value);
  bool Has(std::string_view name) const { return Get(name).has_value(); }
  const std::vector<std::pair<std::string, std::string>>& fields() const { return fields_; }

 private:
  std::vector<std::pair<std::string, std::string>> fields_;
};

struct HttpRequest {
  std::string method;        // "GET", "POST", ...
  std::string target;        // As sent: "/v1/namespaces/a%1Fb?pageSize=10"
  std::string path;          // Target up to '?', still percent-encoded.
  std::string query_string;  // After '?', still percent-encoded; empty if none.
  HttpHeaders headers;
  std::string body;
  std::string remote_address;                         // "127.0.0.1:53122" (server side).
  std::string scheme = "http";                        // "https" on a TLS connection (server side).
  std::map<std::string, std::string> path_params;     // Decoded captures of the route ("{table}").

  // The decoded value of query parameter `name` (first occurrence).
  std::optional<std::string> Query(std::string_view name) const;
  // A decoded path capture; empty when the route has no such capture.
  std::string_view Param(std::string_view name) const;
};

struct HttpResponse {
  int status = 200;
  HttpHeaders headers;
  std::string body;
  // How long the server waits before sending it, without holding a thread: a refused login
  // is answered after auth's failed-login delay, so guessing passwords is slow.
  std::chrono::milliseconds delay{0};

  static HttpResponse Text(int status, std::string body);
  static HttpResponse Json(int status, std::string body);
};

// The standard phrase for a status code ("Not Found"), or "" when unknown.
std::string_view StatusReason(int status);

// Decodes %XX escapes (and '+' as space when `plus_is_space`, as in query strings).
Result<std::string> PercentDecode(std::string_view text, bool plus_is_space = false);

// Encodes every byte but the RFC 3986 unreserved ones (A-Z a-z 0-9 - _ . ~), and '/' too unless
// `keep_slash`. This is the encoding AWS SigV4 requires.
std::string PercentEncode(std::string_view text, bool keep_slash = false);

// Splits "a=1&b=%20x" into decoded pairs, in order.
Result<std::vector<std::pair<std::string, std::string>>> ParseQuery(std::string_view query);

}  // namespace floe::net

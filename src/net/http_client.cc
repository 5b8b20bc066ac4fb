#include "net/http_client.h"

#include <cstdlib>

#include <curl/curl.h>

#include <strings.h>

#include <charconv>
#include <functional>

namespace floe::net {
namespace {

void InitCurlOnce() {
  static const CURLcode rc = curl_global_init(CURL_GLOBAL_DEFAULT);
  (void)rc;
}

// Collects one response while libcurl runs the exchange.
struct Exchange {
  HttpResponse response;
  uint64_t max_bytes = 0;
  bool too_large = false;
  bool headers_ended = false;  // Saw the blank line that ends a header block.
};

size_t OnBody(char* data, size_t size, size_t count, void* user) {
  auto* ex = static_cast<Exchange*>(user);
  size_t n = size * count;
  if (ex->response.body.size() + n > ex->max_bytes) {
    ex->too_large = true;
    return 0;  // Makes libcurl fail with CURLE_WRITE_ERROR.
  }
  ex->response.body.append(data, n);
  return n;
}

std::string_view Trim(std::string_view s) {
  while (!s.empty() && (s.front() == ' ' || s.front() == '\t')) s.remove_prefix(1);
  while (!s.empty() && (s.back() == ' ' || s.back() == '\t' || s.back() == '\r' || s.back() == '\n')) s.remove_suffix(1);
  return s;
}

size_t OnHeader(char* data, size_t size, size_t count, void* user) {
  auto* ex = static_cast<Exchange*>(user);
  size_t n = size * count;
  std::string_view line(data, n);
  if (line.starts_with("HTTP/")) {
    ex->response.headers = HttpHeaders();  // A new response (after 100 Continue or a redirect).
    ex->headers_ended = false;
    return n;
  }
  if (line == "\r\n" || line == "\n") {
    ex->headers_ended = true;
    return n;
  }
  size_t colon = line.find(':');
  if (colon == std::string_view::npos) return n;
  std::string_view name = Trim(line.substr(0, colon));
  std::string_view value = Trim(line.substr(colon + 1));
  ex->response.headers.Add(name, value);
  if (name.size() == 14 && ::strncasecmp(name.data(), "content-length", 14) == 0) {
    uint64_t length = 0;
    auto [ptr, ec] = std::from_chars(value.data(), value.data() + value.size(), length);
    if (ec == std::errc() && length <= ex->max_bytes) ex->response.body.reserve(length);
  }
  return n;
}

}  // namespace

std::string HttpClientOptions::DefaultCaFile() {
  const char* file = std::getenv("SSL_CERT_FILE");
  return file == nullptr ? std::string() : std::string(file);
}

HttpClient::HttpClient(HttpClientOptions options) : options_(std::move(options)) { InitCurlOnce(); }

HttpClient::~HttpClient() {
  for (void* handle : idle_) curl_easy_cleanup(static_cast<CURL*>(handle));
}

void* HttpClient::Acquire() {
  {
    std::lock_guard lock(mu_);
    if (!idle_.empty()) {
      void* handle = idle_.back();
      idle_.pop_back();
      return handle;
    }
  }
  return curl_easy_init();
}

void HttpClient::Release(void* handle) {
  curl_easy_reset(static_cast<CURL*>(handle));  // Keeps the handle's open connections.
  std::lock_guard lock(mu_);
  if (idle_.size() < options_.max_idle_handles) {
    idle_.push_back(handle);
    return;
  }
  curl_easy_cleanup(static_cast<CURL*>(handle));
}

Result<HttpResponse> HttpClient::Send(const HttpClientRequest& request) {
  CURL* curl = static_cast<CURL*>(Acquire());
  if (curl == nullptr) return ResourceExhausted("HTTP client: cannot create a libcurl handle");
  std::unique_ptr<void, std::function<void(void*)>> release(curl, [this](void* h) { Release(h); });

  Exchange ex;
  ex.max_bytes = options_.max_response_bytes;
  // The list's head never changes after the first append; the guard frees it on every return.
  curl_slist* headers = nullptr;
  std::unique_ptr<curl_slist*, void (*)(curl_slist**)> free_headers(&headers, [](curl_slist** h) {
    curl_slist_free_all(*h);
  });
  auto add_header = [&](const std::string& line) { headers = curl_slist_append(headers, line.c_str()); };
  for (const auto& [name, value] : request.headers.fields()) {
    // "Name;" sends a header with an empty value; "Name:" would delete it.
    add_header(value.empty() ? fmt::format("{};", name) : fmt::format("{}: {}", name, value));
  }
  if (!request.headers.Has("Expect")) add_header("Expect:");  // No 100-continue round trip.
  bool has_body = !request.body.empty() || request.method == "POST" || request.method == "PUT";
  if (has_body && !request.headers.Has("Content-Type")) add_header("Content-Type:");

  curl_easy_setopt(curl, CURLOPT_URL, request.url.c_str());
  curl_easy_setopt(curl, CURLOPT_NOSIGNAL, 1L);
  curl_easy_setopt(curl, CURLOPT_NOPROXY, "127.0.0.1,localhost,::1");
  if (!options_.ca_file.empty()) curl_easy_setopt(curl, CURLOPT_CAINFO, options_.ca_file.c_str());
  curl_easy_setopt(curl, CURLOPT_HTTPHEADER, headers);
  curl_easy_setopt(curl, CURLOPT_WRITEFUNCTION, OnBody);
  curl_easy_setopt(curl, CURLOPT_WRITEDATA, &ex);
  curl_easy_setopt(curl, CURLOPT_HEADERFUNCTION, OnHeader);
  curl_easy_setopt(curl, CURLOPT_HEADERDATA, &ex);
  curl_easy_setopt(curl, CURLOPT_CONNECTTIMEOUT_MS, static_cast<long>(options_.connect_timeout.count()));
  curl_easy_setopt(curl, CURLOPT_LOW_SPEED_LIMIT, 1L);
  curl_easy_setopt(curl, CURLOPT_LOW_SPEED_TIME, static_cast<long>((options_.read_timeout.count() + 999) / 1000));
  curl_easy_setopt(curl, CURLOPT_TIMEOUT_MS, static_cast<long>(options_.total_timeout.count()));
  curl_easy_setopt(curl, CURLOPT_BUFFERSIZE, 512L * 1024);
  if (request.method == "HEAD") {
    curl_easy_setopt(curl, CURLOPT_NOBODY, 1L);
  } else if (has_body) {
    curl_easy_setopt(curl, CURLOPT_POSTFIELDS, request.body.data());
    curl_easy_setopt(curl, CURLOPT_POSTFIELDSIZE_LARGE, static_cast<curl_off_t>(request.body.size()));
    curl_easy_setopt(curl, CURLOPT_CUSTOMREQUEST, request.method.c_str());
  } else if (request.method != "GET") {
    curl_easy_setopt(curl, CURLOPT_CUSTOMREQUEST, request.method.c_str());
  }

  if (!request.url.starts_with("http://") && !request.url.starts_with("https://")) {
    return InvalidArgument("HTTP {} {}: only http:// and https:// URLs are supported", request.method, request.url);
  }
  CURLcode rc = curl_easy_perform(curl);
  if (rc != CURLE_OK) {
    std::string_view what = curl_easy_strerror(rc);
    switch (rc) {
      case CURLE_URL_MALFORMAT:
        return InvalidArgument("HTTP {} {}: {}", request.method, request.url, what);
      case CURLE_UNSUPPORTED_PROTOCOL:  // The answer was not HTTP/1.x (libcurl refuses HTTP/0.9).
      case CURLE_WEIRD_SERVER_REPLY:
        return Corruption("HTTP {} {}: the server's answer is not HTTP ({})", request.method, request.url, what);
      case CURLE_WRITE_ERROR:
        if (ex.too_large) {
          return ResourceExhausted("HTTP {} {}: response larger than {} bytes", request.method, request.url,
                                   options_.max_response_bytes);
        }
        [[fallthrough]];
      default:
        return Unavailable("HTTP {} {}: {}", request.method, request.url, what);
    }
  }
  if (!ex.headers_ended) {
    return Corruption("HTTP {} {}: the answer ended inside its header", request.method, request.url);
  }
  long status = 0;
  curl_easy_getinfo(curl, CURLINFO_RESPONSE_CODE, &status);
  ex.response.status = static_cast<int>(status);
  return std::move(ex.response);
}

}  // namespace floe::net

#include "io/s3_object_store.h"

#include <charconv>
#include <cstdlib>
#include <ctime>
#include <random>
#include <thread>

#include "io/object_key.h"
#include "io/s3_responses.h"
#include "net/http_message.h"

namespace floe::io {
namespace {

constexpr std::string_view kEmptySha256 = "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855";
constexpr int kDeleteBatch = 1000;

std::string AmzDateNow() {
  std::time_t now = std::time(nullptr);
  std::tm tm{};
  ::gmtime_r(&now, &tm);
  char buf[32];
  std::strftime(buf, sizeof(buf), "%Y%m%dT%H%M%SZ", &tm);
  return buf;
}

bool ParseBool(std::string_view v, bool fallback) {
  if (v == "1" || v == "true" || v == "TRUE" || v == "yes" || v == "on") return true;
  if (v == "0" || v == "false" || v == "FALSE" || v == "no" || v == "off") return false;
  return fallback;
}

bool RetryableStatus(int status, std::string_view code) {
  return status == 500 || status == 502 || status == 503 || status == 504 || status == 429 ||
         code == "SlowDown" || code == "RequestTimeout" || code == "InternalError" ||
         code == "ConditionalRequestConflict";
}

bool CredentialsRefused(std::string_view code) {
  return code == "InvalidAccessKeyId" || code == "SignatureDoesNotMatch" || code == "ExpiredToken" ||
         code == "InvalidToken" || code == "TokenRefreshRequired" || code == "AuthorizationHeaderMalformed" ||
         code == "InvalidSecurity" || code == "RequestTimeTooSkewed";
}

// Sleeps a random time in [0, min(max, base * 2^(attempt-1))): "full jitter".
void Backoff(int attempt, std::chrono::milliseconds base, std::chrono::milliseconds max) {
  thread_local std::mt19937_64 rng(std::random_device{}());
  int64_t cap = base.count();
  for (int i = 1; i < attempt && cap < max.count(); ++i) cap *= 2;
  cap = std::min<int64_t>(cap, max.count());
  if (cap <= 0) return;
  std::this_thread::sleep_for(std::chrono::milliseconds(std::uniform_int_distribution<int64_t>(0, cap)(rng)));
}

class S3InputFile final : public InputFile {
 public:
  S3InputFile(S3ObjectStore& store, std::string object_key, uint64_t size, std::string uri)
      : store_(store), object_key_(std::move(object_key)), size_(size), uri_(std::move(uri)) {}
  uint64_t Size() const override { return size_; }
  Result<std::string> ReadAt(uint64_t offset, uint64_t length) const override {
    if (offset > size_ || length > size_ - offset) {
      return InvalidArgument("read {}: range [{}, {}) is past the end of the object ({} bytes)", uri_, offset,
                             offset + length, size_);
    }
    return store_.ReadRange(object_key_, offset, length);
  }
  const std::string& location() const override { return uri_; }

 private:
  S3ObjectStore& store_;
  std::string object_key_;
  uint64_t size_;
  std::string uri_;
};

// Buffers a part, then uploads parts of a multipart upload; a stream that never fills one part
// is written with a single PUT on Close.
class S3OutputStream final : public OutputStream {
 public:
  S3OutputStream(S3ObjectStore& store, std::string object_key, std::string uri)
      : store_(store), object_key_(std::move(object_key)), uri_(std::move(uri)) {}
  ~S3OutputStream() override { Abort(); }

  Status Append(std::string_view bytes) override {
    if (state_ != State::kOpen) return InvalidArgument("append to {}: the stream is closed or failed", uri_);
    written_ += bytes.size();
    const uint64_t part_size = store_.options().part_size;
    while (!bytes.empty()) {
      size_t take = std::min<size_t>(bytes.size(), part_size - buffer_.size());
      buffer_.append(bytes.substr(0, take));
      bytes.remove_prefix(take);
      if (buffer_.size() == part_size) {
        if (Status st = UploadPart(); !st) {
          Abort();
          state_ = State::kFailed;
          return st;
        }
      }
    }
    return OkStatus();
  }

  Status Close() override {
    if (state_ != State::kOpen) return InvalidArgument("close {}: the stream is closed or failed", uri_);
    Status st;
    if (!upload_id_) {
      auto r = store_.Send({.method = "PUT", .object_key = object_key_, .body = buffer_});
      if (!r) st = std::unexpected(std::move(r).error());
    } else {
      if (!buffer_.empty()) st = UploadPart();
      if (st) {
        std::string body = CompleteMultipartUploadBody(etags_);
        auto r = store_.Send({.method = "POST", .object_key = object_key_, .query = {{"uploadId", *upload_id_}},
                              .body = body});
        st = r ? CheckCompleteMultipartUpload(r->body) : Status(std::unexpected(r.error()));
      }
      if (!st) Abort();
    }
    buffer_.clear();
    buffer_.shrink_to_fit();
    upload_id_.reset();
    state_ = st ? State::kClosed : State::kFailed;
    return st;
  }

  void Abort() override {
    if (upload_id_) {
      (void)store_.Send({.method = "DELETE", .object_key = object_key_, .query = {{"uploadId", *upload_id_}}});
      upload_id_.reset();
    }
    buffer_.clear();
    if (state_ == State::kOpen) state_ = State::kFailed;
  }

  uint64_t BytesWritten() const override { return written_; }

 private:
  enum class State { kOpen, kClosed, kFailed };

  Status UploadPart() {
    if (!upload_id_) {
      FLOE_ASSIGN_OR_RETURN(auto created,
                            store_.Send({.method = "POST", .object_key = object_key_, .query = {{"uploads", ""}}}));
      FLOE_ASSIGN_OR_RETURN_CTX(upload_id_, ParseInitiateMultipartUpload(created.body), uri_);
    }
    std::string number = std::to_string(etags_.size() + 1);
    FLOE_ASSIGN_OR_RETURN(auto uploaded, store_.Send({.method = "PUT",
                                                      .object_key = object_key_,
                                                      .query = {{"partNumber", number}, {"uploadId", *upload_id_}},
                                                      .body = buffer_}));
    auto etag = uploaded.headers.Get("ETag");
    if (!etag || etag->empty()) return Corruption("{}: S3 UploadPart {} answered without an ETag", uri_, number);
    etags_.emplace_back(*etag);
    buffer_.clear();
    return OkStatus();
  }

  S3ObjectStore& store_;
  std::string object_key_;
  std::string uri_;
  std::string buffer_;
  std::optional<std::string> upload_id_;
  std::vector<std::string> etags_;
  uint64_t written_ = 0;
  State state_ = State::kOpen;
};

}  // namespace

Result<S3Options> S3Options::FromUri(std::string_view uri, const EnvLookup& env) {
  if (!uri.starts_with("s3://")) return InvalidArgument("S3 URI '{}' must start with s3://", uri);
  std::string_view rest = uri.substr(5);
  size_t slash = rest.find('/');
  S3Options options;
  options.bucket = std::string(rest.substr(0, slash));
  if (options.bucket.empty()) return InvalidArgument("S3 URI '{}' names no bucket", uri);
  if (options.bucket.find_first_of(":@?#") != std::string::npos) {
    return InvalidArgument("S3 URI '{}': '{}' is not a bucket name", uri, options.bucket);
  }
  if (slash != std::string_view::npos) {
    std::string prefix(rest.substr(slash + 1));
    while (!prefix.empty() && prefix.back() == '/') prefix.pop_back();
    if (!prefix.empty()) {
      FLOE_RETURN_IF_ERROR_CTX(ValidateKey(prefix), fmt::format("S3 URI '{}'", uri));
      options.prefix = fmt::format("{}/", prefix);
    }
  }
  auto get = [&](std::string_view name) -> std::string { return env(name).value_or(""); };
  options.credentials.access_key_id = get("AWS_ACCESS_KEY_ID");
  options.credentials.secret_access_key = get("AWS_SECRET_ACCESS_KEY");
  options.credentials.session_token = get("AWS_SESSION_TOKEN");
  if (!options.credentials.access_key_id.empty() && options.credentials.secret_access_key.empty()) {
    return InvalidArgument("AWS_ACCESS_KEY_ID is set but AWS_SECRET_ACCESS_KEY is not");
  }
  std::string region = get("AWS_REGION");
  if (region.empty()) region = get("AWS_DEFAULT_REGION");
  if (!region.empty()) options.region = region;
  options.endpoint = get("AWS_ENDPOINT_URL_S3");
  if (options.endpoint.empty()) options.endpoint = get("AWS_ENDPOINT_URL");
  options.path_style = ParseBool(get("FLOE_S3_PATH_STYLE"), !options.endpoint.empty());
  options.conditional_put = ParseBool(get("FLOE_S3_CONDITIONAL_PUT"), true);
  return options;
}

Result<S3Options> S3Options::FromUri(std::string_view uri) {
  return FromUri(uri, [](std::string_view name) -> std::optional<std::string> {
    const char* v = std::getenv(std::string(name).c_str());
    if (v == nullptr) return std::nullopt;
    return std::string(v);
  });
}

S3ObjectStore::S3ObjectStore(S3Options options) : options_(std::move(options)), http_(options_.http) {}

Result<std::unique_ptr<S3ObjectStore>> S3ObjectStore::Open(S3Options options) {
  if (options.bucket.empty()) return InvalidArgument("S3 store: no bucket");
  if (options.part_size < (5 << 20)) return InvalidArgument("S3 store: part size {} is below S3's 5 MiB minimum", options.part_size);
  if (options.max_attempts < 1) options.max_attempts = 1;
  std::unique_ptr<S3ObjectStore> store(new S3ObjectStore(std::move(options)));
  const S3Options& o = store->options_;
  std::string scheme = "https";
  std::string host = fmt::format("s3.{}.amazonaws.com", o.region);
  if (!o.endpoint.empty()) {
    std::string_view endpoint = o.endpoint;
    size_t sep = endpoint.find("://");
    if (sep == std::string_view::npos) return InvalidArgument("S3 endpoint '{}' needs a scheme (http:// or https://)", endpoint);
    scheme = std::string(endpoint.substr(0, sep));
    if (scheme != "http" && scheme != "https") return InvalidArgument("S3 endpoint '{}': unsupported scheme", endpoint);
    std::string_view rest = endpoint.substr(sep + 3);
    rest = rest.substr(0, rest.find('/'));
    if (rest.empty()) return InvalidArgument("S3 endpoint '{}' names no host", endpoint);
    host = std::string(rest);
  }
  if (o.path_style) {
    store->host_header_ = host;
    store->path_base_ = fmt::format("/{}", net::PercentEncode(o.bucket));
  } else {
    store->host_header_ = fmt::format("{}.{}", o.bucket, host);
  }
  store->scheme_host_ = fmt::format("{}://{}", scheme, store->host_header_);
  return store;
}

std::string S3ObjectStore::UriOfFullKey(std::string_view object_key) const {
  return fmt::format("s3://{}/{}", options_.bucket, object_key);
}

std::string S3ObjectStore::ObjectUrl(std::string_view key) const {
  return fmt::format("{}{}/{}", scheme_host_, path_base_, net::PercentEncode(FullKey(key), /*keep_slash=*/true));
}

std::string S3ObjectStore::Uri(std::string_view key) const { return UriOfFullKey(FullKey(key)); }

Result<net::HttpResponse> S3ObjectStore::Send(const Call& call, int* attempts) {
  std::string path = fmt::format("{}/{}", path_base_, net::PercentEncode(call.object_key, /*keep_slash=*/true));
  if (call.object_key.empty() && !path_base_.empty()) path = path_base_;
  std::string query = CanonicalQueryString(call.query);
  // A valueless subresource is sent as "?uploads", signed as "uploads=".
  std::string sent_query;
  for (const auto& [k, v] : call.query) {
    if (!sent_query.empty()) sent_query += '&';
    sent_query += net::PercentEncode(k);
    if (!v.empty()) {
      sent_query += '=';
      sent_query += net::PercentEncode(v);
    }
  }
  std::string url = sent_query.empty() ? fmt::format("{}{}", scheme_host_, path)
                                       : fmt::format("{}{}?{}", scheme_host_, path, sent_query);
  std::string payload_hash = call.body.empty() ? std::string(kEmptySha256) : Sha256Hex(call.body);
  std::string what = fmt::format("{} {}", call.method, UriOfFullKey(call.object_key));

  for (int attempt = 1;; ++attempt) {
    if (attempts != nullptr) *attempts = attempt;
    net::HttpClientRequest request{.method = call.method, .url = url, .body = call.body};
    std::string amz_date = AmzDateNow();
    std::vector<std::pair<std::string, std::string>> signed_headers = {
        {"Host", host_header_}, {"x-amz-date", amz_date}, {"x-amz-content-sha256", payload_hash}};
    if (!options_.credentials.session_token.empty()) {
      signed_headers.emplace_back("x-amz-security-token", options_.credentials.session_token);
    }
    for (const auto& h : call.headers) signed_headers.push_back(h);
    for (const auto& [name, value] : signed_headers) request.headers.Add(name, value);
    if (!options_.credentials.access_key_id.empty()) {
      SigV4Request to_sign{.method = call.method,
                           .canonical_uri = path,
                           .query = call.query,
                           .headers = signed_headers,
                           .payload_hash = payload_hash};
      request.headers.Add("Authorization",
                          SignV4(to_sign, options_.credentials, options_.region, "s3", amz_date).authorization);
    }
    auto response = http_.Send(request);
    if (!response) {
      if (response.error().kind() == ErrorKind::kUnavailable && attempt < options_.max_attempts) {
        Backoff(attempt, options_.base_backoff, options_.max_backoff);
        continue;
      }
      return std::unexpected(std::move(response).error().WithContext(
          fmt::format("{} (after {} attempt{})", what, attempt, attempt == 1 ? "" : "s")));
    }
    int status = response->status;
    if (status >= 200 && status < 300) return response;

    S3ErrorBody error{.code = "", .message = ""};
    if (!response->body.empty()) {
      if (auto parsed = ParseS3Error(response->body)) error = std::move(*parsed);
    }
    if (RetryableStatus(status, error.code) && attempt < options_.max_attempts) {
      Backoff(attempt, options_.base_backoff, options_.max_backoff);
      continue;
    }
    std::string detail = error.code.empty() ? fmt::format("HTTP {}", status)
                                            : fmt::format("HTTP {} {}: {}", status, error.code, error.message);
    switch (status) {
      case 404:
        if (error.code == "NoSuchBucket") return NotFound("{}: bucket '{}' does not exist ({})", what, options_.bucket, detail);
        return NotFound("{}: no such object ({})", what, detail);
      case 412:
        return AlreadyExists("{}: the object already exists ({})", what, detail);
      case 416:
        return InvalidArgument("{}: range not satisfiable ({})", what, detail);
      case 401:
      case 403:
        if (error.code.empty() || CredentialsRefused(error.code)) {
          return Unauthenticated(
              "{}: the credentials or signature were refused ({}); check AWS_ACCESS_KEY_ID, AWS_SECRET_ACCESS_KEY, "
              "AWS_SESSION_TOKEN and AWS_REGION{}",
              what, detail, options_.credentials.access_key_id.empty() ? " (no credentials are set)" : "");
        }
        return PermissionDenied("{}: access denied by the bucket's policy for these credentials ({})", what, detail);
      case 409:
        return Conflict("{}: {}", what, detail);
      default:
        if (status >= 500 || status == 429) {
          return Unavailable("{}: {} (gave up after {} attempts)", what, detail, attempt);
        }
        return InvalidArgument("{}: {}", what, detail);
    }
  }
}

Result<std::string> S3ObjectStore::Get(std::string_view key) {
  FLOE_RETURN_IF_ERROR(ValidateKey(key));
  FLOE_ASSIGN_OR_RETURN(auto response, Send({.method = "GET", .object_key = FullKey(key)}));
  return std::move(response.body);
}

Result<std::string> S3ObjectStore::ReadRange(const std::string& object_key, uint64_t offset, uint64_t length) {
  std::string uri = UriOfFullKey(object_key);
  if (length == 0) {
    FLOE_ASSIGN_OR_RETURN(auto head, Send({.method = "HEAD", .object_key = object_key}));
    uint64_t size = std::strtoull(std::string(head.headers.Get("Content-Length").value_or("0")).c_str(), nullptr, 10);
    if (offset > size) return InvalidArgument("read {}: offset {} is past the end of the object ({} bytes)", uri, offset, size);
    return std::string();
  }
  auto response = Send({.method = "GET",
                        .object_key = object_key,
                        .headers = {{"Range", fmt::format("bytes={}-{}", offset, offset + length - 1)}}});
  if (!response) {
    if (response.error().kind() == ErrorKind::kInvalidArgument) {
      return InvalidArgument("read {}: range [{}, {}) is past the end of the object", uri, offset, offset + length);
    }
    return std::unexpected(std::move(response).error());
  }
  std::string body = std::move(response->body);
  if (response->status == 200) {  // The server ignored the range and sent everything.
    if (offset > body.size() || length > body.size() - offset) {
      return InvalidArgument("read {}: range [{}, {}) is past the end of the object ({} bytes)", uri, offset,
                             offset + length, body.size());
    }
    return body.substr(offset, length);
  }
  if (body.size() > length) {
    // Some servers answer "bytes=0-0" with more than one byte; keep what was asked for if the
    // answer starts at our offset.
    std::string_view range = response->headers.Get("Content-Range").value_or("");
    if (!range.starts_with(fmt::format("bytes {}-{}/", offset, offset + body.size() - 1))) {
      return Corruption("read {}: asked for [{}, {}) but got {} bytes (Content-Range '{}')", uri, offset,
                        offset + length, body.size(), range);
    }
    body.resize(length);
  }
  if (body.size() != length) {
    // S3 shortens a range that runs past the end of the object.
    return InvalidArgument("read {}: range [{}, {}) is past the end of the object (got {} bytes)", uri, offset,
                           offset + length, body.size());
  }
  return body;
}

Result<std::string> S3ObjectStore::GetRange(std::string_view key, uint64_t offset, uint64_t length) {
  FLOE_RETURN_IF_ERROR(ValidateKey(key));
  return ReadRange(FullKey(key), offset, length);
}

Result<ObjectInfo> S3ObjectStore::Head(std::string_view key) {
  FLOE_RETURN_IF_ERROR(ValidateKey(key));
  FLOE_ASSIGN_OR_RETURN(auto response, Send({.method = "HEAD", .object_key = FullKey(key)}));
  ObjectInfo info{.key = std::string(key)};
  auto length = response.headers.Get("Content-Length");
  if (!length) return Corruption("HEAD {}: answer without Content-Length", Uri(key));
  auto [end, ec] = std::from_chars(length->data(), length->data() + length->size(), info.size);
  if (length->empty() || ec != std::errc() || end != length->data() + length->size()) {
    return Corruption("HEAD {}: bad Content-Length '{}'", Uri(key), *length);
  }
  if (auto modified = response.headers.Get("Last-Modified")) {
    if (auto millis = ParseHttpDateMillis(*modified)) info.last_modified_millis = *millis;
  }
  info.etag = std::string(response.headers.Get("ETag").value_or(""));
  return info;
}

Result<std::unique_ptr<InputFile>> S3ObjectStore::OpenInput(std::string_view key) {
  FLOE_ASSIGN_OR_RETURN(ObjectInfo info, Head(key));
  return std::make_unique<S3InputFile>(*this, FullKey(key), info.size, Uri(key));
}

Status S3ObjectStore::Put(std::string_view key, std::string_view bytes) {
  FLOE_RETURN_IF_ERROR(ValidateKey(key));
  FLOE_RETURN_IF_ERROR(Send({.method = "PUT", .object_key = FullKey(key), .body = bytes}));
  return OkStatus();
}

Status S3ObjectStore::PutIfAbsent(std::string_view key, std::string_view bytes) {
  FLOE_RETURN_IF_ERROR(ValidateKey(key));
  if (!options_.conditional_put) {
    return NotImplemented("put-if-absent {}: this S3 server is configured without conditional PUT "
                          "(FLOE_S3_CONDITIONAL_PUT=false)", Uri(key));
  }
  int attempts = 0;
  auto r = Send({.method = "PUT", .object_key = FullKey(key), .headers = {{"If-None-Match", "*"}}, .body = bytes},
                &attempts);
  if (!r && r.error().kind() == ErrorKind::kAlreadyExists && attempts > 1) {
    // An earlier attempt may have landed before its answer was lost: if the object holds our
    // bytes, that attempt won.
    auto existing = Get(key);
    if (existing && *existing == bytes) return OkStatus();
  }
  if (!r) return std::unexpected(std::move(r).error());
  return OkStatus();
}

Result<std::unique_ptr<OutputStream>> S3ObjectStore::OpenOutput(std::string_view key) {
  FLOE_RETURN_IF_ERROR(ValidateKey(key));
  return std::make_unique<S3OutputStream>(*this, FullKey(key), Uri(key));
}

Status S3ObjectStore::Delete(std::string_view key) {
  FLOE_RETURN_IF_ERROR(ValidateKey(key));
  auto r = Send({.method = "DELETE", .object_key = FullKey(key)});
  if (!r && r.error().kind() != ErrorKind::kNotFound) return std::unexpected(std::move(r).error());
  return OkStatus();
}

Status S3ObjectStore::DeleteMany(const std::vector<std::string>& keys) {
  for (const std::string& key : keys) FLOE_RETURN_IF_ERROR(ValidateKey(key));
  for (size_t start = 0; start < keys.size(); start += kDeleteBatch) {
    std::vector<std::string> batch;
    for (size_t i = start; i < std::min(keys.size(), start + kDeleteBatch); ++i) batch.push_back(FullKey(keys[i]));
    std::string body = DeleteObjectsBody(batch);
    FLOE_ASSIGN_OR_RETURN(auto response, Send({.method = "POST",
                                               .query = {{"delete", ""}},
                                               .headers = {{"Content-MD5", Md5Base64(body)},
                                                           {"Content-Type", "application/xml"}},
                                               .body = body}));
    FLOE_ASSIGN_OR_RETURN_CTX(auto failures, ParseDeleteResult(response.body),
                              fmt::format("DeleteObjects in s3://{}", options_.bucket));
    std::erase_if(failures, [](const S3DeleteFailure& f) { return f.code == "NoSuchKey"; });
    if (!failures.empty()) {
      return IoError("DeleteObjects in s3://{}: {} of {} keys failed, first {}: {}: {}", options_.bucket,
                     failures.size(), batch.size(), failures[0].key, failures[0].code, failures[0].message);
    }
  }
  return OkStatus();
}

Result<ListResult> S3ObjectStore::List(std::string_view prefix, std::string_view delimiter,
                                       std::optional<std::string> continuation_token, int max_keys) {
  FLOE_RETURN_IF_ERROR(ValidatePrefix(prefix));
  if (max_keys <= 0) return InvalidArgument("list {}: max_keys must be positive, got {}", Uri(prefix), max_keys);
  Call call{.method = "GET",
            .query = {{"list-type", "2"}, {"prefix", FullKey(prefix)}, {"max-keys", std::to_string(std::min(max_keys, 1000))}}};
  if (!delimiter.empty()) call.query.emplace_back("delimiter", std::string(delimiter));
  if (continuation_token) call.query.emplace_back("continuation-token", *continuation_token);
  FLOE_ASSIGN_OR_RETURN(auto response, Send(call));
  FLOE_ASSIGN_OR_RETURN_CTX(S3ListPage page, ParseListObjectsV2(response.body),
                            fmt::format("list {}", Uri(prefix)));
  ListResult result;
  for (ObjectInfo& info : page.objects) {
    if (!info.key.starts_with(options_.prefix)) {
      return Corruption("list {}: the server returned key '{}' outside the prefix", Uri(prefix), info.key);
    }
    info.key.erase(0, options_.prefix.size());
    result.objects.push_back(std::move(info));
  }
  for (std::string& p : page.common_prefixes) {
    if (!p.starts_with(options_.prefix)) {
      return Corruption("list {}: the server returned prefix '{}' outside the prefix", Uri(prefix), p);
    }
    result.common_prefixes.push_back(p.substr(options_.prefix.size()));
  }
  result.next_token = std::move(page.next_token);
  return result;
}

}  // namespace floe::io

// AWS Signature Version 4 (header form), as S3 and every S3-compatible store require.
//
// Pure functions of their inputs (no clock, no environment), so AWS's published examples pin
// them down in tests. docs/storage.md walks through the steps. Thread-safe.
#pragma once

#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace floe::io {

struct AwsCredentials {
  std::string access_key_id;
  std::string secret_access_key;
  std::string session_token;  // Empty unless temporary credentials.
};

struct SigV4Request {
  std::string method;
  std::string canonical_uri;  // The path exactly as sent, already percent-encoded: "/test%24file.text".
  std::vector<std::pair<std::string, std::string>> query;    // Decoded names and values.
  std::vector<std::pair<std::string, std::string>> headers;  // Every header to sign, Host included.
  std::string payload_hash;  // Hex SHA-256 of the body (or "UNSIGNED-PAYLOAD").
};

struct SigV4Result {
  std::string canonical_request;
  std::string string_to_sign;
  std::string signature;      // Hex.
  std::string authorization;  // The Authorization header value.
};

// `amz_date` is "20130524T000000Z"; the scope's date is its first 8 characters.
SigV4Result SignV4(const SigV4Request& request, const AwsCredentials& credentials, std::string_view region,
                   std::string_view service, std::string_view amz_date);

std::string Sha256Hex(std::string_view bytes);
std::string Md5Base64(std::string_view bytes);

// The query string as SigV4 canonicalizes it (and as it should be sent): names and values
// percent-encoded, sorted, joined by '&'.
std::string CanonicalQueryString(const std::vector<std::pair<std::string, std::string>>& query);

}  // namespace floe::io

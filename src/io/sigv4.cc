#include "io/sigv4.h"

#include <openssl/evp.h>
#include <openssl/hmac.h>

#include <algorithm>
#include <cctype>

#include <fmt/format.h>

#include "net/http_message.h"

namespace floe::io {
namespace {

std::string Hex(const unsigned char* data, size_t size) {
  static constexpr char kHex[] = "0123456789abcdef";
  std::string out(size * 2, '\0');
  for (size_t i = 0; i < size; ++i) {
    out[2 * i] = kHex[data[i] >> 4];
    out[2 * i + 1] = kHex[data[i] & 15];
  }
  return out;
}

std::string Hmac(std::string_view key, std::string_view data) {
  unsigned char out[EVP_MAX_MD_SIZE];
  unsigned int size = 0;
  HMAC(EVP_sha256(), key.data(), static_cast<int>(key.size()), reinterpret_cast<const unsigned char*>(data.data()),
       data.size(), out, &size);
  return std::string(reinterpret_cast<char*>(out), size);
}

std::string Digest(const EVP_MD* md, std::string_view bytes) {
  unsigned char out[EVP_MAX_MD_SIZE];
  unsigned int size = 0;
  EVP_Digest(bytes.data(), bytes.size(), out, &size, md, nullptr);
  return std::string(reinterpret_cast<char*>(out), size);
}

std::string Lower(std::string_view s) {
  std::string out(s);
  for (char& c : out) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return out;
}

// Trims and collapses runs of spaces, as SigV4 canonical header values require.
std::string CanonicalValue(std::string_view v) {
  std::string out;
  bool space = false;
  for (char c : v) {
    if (c == ' ' || c == '\t') {
      space = !out.empty();
      continue;
    }
    if (space) out.push_back(' ');
    space = false;
    out.push_back(c);
  }
  return out;
}

}  // namespace

std::string Sha256Hex(std::string_view bytes) {
  std::string d = Digest(EVP_sha256(), bytes);
  return Hex(reinterpret_cast<const unsigned char*>(d.data()), d.size());
}

std::string Md5Base64(std::string_view bytes) {
  std::string d = Digest(EVP_md5(), bytes);
  unsigned char out[64];
  int n = EVP_EncodeBlock(out, reinterpret_cast<const unsigned char*>(d.data()), static_cast<int>(d.size()));
  return std::string(reinterpret_cast<char*>(out), static_cast<size_t>(n));
}

std::string CanonicalQueryString(const std::vector<std::pair<std::string, std::string>>& query) {
  std::vector<std::pair<std::string, std::string>> encoded;
  encoded.reserve(query.size());
  for (const auto& [k, v] : query) encoded.emplace_back(net::PercentEncode(k), net::PercentEncode(v));
  std::sort(encoded.begin(), encoded.end());
  std::string out;
  for (const auto& [k, v] : encoded) {
    if (!out.empty()) out += '&';
    out += k;
    out += '=';
    out += v;
  }
  return out;
}

SigV4Result SignV4(const SigV4Request& request, const AwsCredentials& credentials, std::string_view region,
                   std::string_view service, std::string_view amz_date) {
  // Canonical headers: lower-case names, sorted; repeated names joined with ','.
  std::vector<std::pair<std::string, std::string>> headers;
  for (const auto& [name, value] : request.headers) headers.emplace_back(Lower(name), CanonicalValue(value));
  std::stable_sort(headers.begin(), headers.end(), [](const auto& a, const auto& b) { return a.first < b.first; });
  std::string canonical_headers;
  std::string signed_headers;
  for (size_t i = 0; i < headers.size(); ++i) {
    if (i > 0 && headers[i].first == headers[i - 1].first) {
      canonical_headers.back() = ',';
      canonical_headers += headers[i].second + "\n";
      continue;
    }
    canonical_headers += headers[i].first + ":" + headers[i].second + "\n";
    if (!signed_headers.empty()) signed_headers += ';';
    signed_headers += headers[i].first;
  }

  SigV4Result r;
  r.canonical_request = fmt::format("{}\n{}\n{}\n{}\n{}\n{}", request.method, request.canonical_uri,
                                    CanonicalQueryString(request.query), canonical_headers, signed_headers,
                                    request.payload_hash);
  std::string_view date = amz_date.substr(0, 8);
  std::string scope = fmt::format("{}/{}/{}/aws4_request", date, region, service);
  r.string_to_sign = fmt::format("AWS4-HMAC-SHA256\n{}\n{}\n{}", amz_date, scope, Sha256Hex(r.canonical_request));
  std::string key = Hmac("AWS4" + credentials.secret_access_key, date);
  key = Hmac(key, region);
  key = Hmac(key, service);
  key = Hmac(key, "aws4_request");
  std::string sig = Hmac(key, r.string_to_sign);
  r.signature = Hex(reinterpret_cast<const unsigned char*>(sig.data()), sig.size());
  r.authorization = fmt::format("AWS4-HMAC-SHA256 Credential={}/{}, SignedHeaders={}, Signature={}",
                                credentials.access_key_id, scope, signed_headers, r.signature);
  return r;
}

}  // namespace floe::io

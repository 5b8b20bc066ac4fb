#include "serve/pg_auth.h"

#include <openssl/evp.h>
#include <openssl/hmac.h>
#include <openssl/rand.h>
#include <openssl/sha.h>

#include <fstream>
#include <sstream>

#include <fmt/format.h>
#include <toml++/toml.h>

#include "serve/trino_json.h"

namespace floe::serve::pg {
namespace {

std::string Hex(const unsigned char* data, size_t n) {
  std::string out;
  for (size_t i = 0; i < n; ++i) out += fmt::format("{:02x}", data[i]);
  return out;
}

std::string Md5Hex(std::string_view text) {
  unsigned char digest[EVP_MAX_MD_SIZE];
  unsigned int length = 0;
  EVP_Digest(text.data(), text.size(), digest, &length, EVP_md5(), nullptr);
  return Hex(digest, length);
}

std::string Hmac(std::string_view key, std::string_view data) {
  unsigned char out[EVP_MAX_MD_SIZE];
  unsigned int length = 0;
  HMAC(EVP_sha256(), key.data(), static_cast<int>(key.size()), reinterpret_cast<const unsigned char*>(data.data()),
       data.size(), out, &length);
  return std::string(reinterpret_cast<char*>(out), length);
}

std::string Sha256(std::string_view data) {
  unsigned char out[SHA256_DIGEST_LENGTH];
  SHA256(reinterpret_cast<const unsigned char*>(data.data()), data.size(), out);
  return std::string(reinterpret_cast<char*>(out), SHA256_DIGEST_LENGTH);
}

// The value of attribute `key` ("r", "p", ...) in a comma-separated SCRAM message.
std::optional<std::string_view> Attribute(std::string_view message, char key) {
  size_t start = 0;
  while (start < message.size()) {
    size_t comma = message.find(',', start);
    std::string_view part = message.substr(start, comma == std::string_view::npos ? std::string_view::npos : comma - start);
    if (part.size() >= 2 && part[0] == key && part[1] == '=') return part.substr(2);
    if (comma == std::string_view::npos) break;
    start = comma + 1;
  }
  return std::nullopt;
}

}  // namespace

std::string Base64(std::string_view bytes) { return Base64Encode(bytes); }

Result<std::string> Base64Decode(std::string_view text) {
  auto value = [](char c) -> int {
    if (c >= 'A' && c <= 'Z') return c - 'A';
    if (c >= 'a' && c <= 'z') return c - 'a' + 26;
    if (c >= '0' && c <= '9') return c - '0' + 52;
    if (c == '+') return 62;
    if (c == '/') return 63;
    return -1;
  };
  if (text.size() % 4 != 0) return InvalidArgument("base64 text of {} characters", text.size());
  std::string out;
  for (size_t i = 0; i < text.size(); i += 4) {
    uint32_t n = 0;
    int pad = 0;
    for (size_t j = 0; j < 4; ++j) {
      char c = text[i + j];
      if (c == '=' && i + 4 == text.size() && j >= 2) {
        ++pad;
        n <<= 6;
        continue;
      }
      int v = value(c);
      if (v < 0 || pad > 0) return InvalidArgument("bad base64 character");
      n = (n << 6) | static_cast<uint32_t>(v);
    }
    out.push_back(static_cast<char>((n >> 16) & 0xff));
    if (pad < 2) out.push_back(static_cast<char>((n >> 8) & 0xff));
    if (pad < 1) out.push_back(static_cast<char>(n & 0xff));
  }
  return out;
}

std::string RandomBytes(size_t n) {
  std::string out(n, '\0');
  RAND_bytes(reinterpret_cast<unsigned char*>(out.data()), static_cast<int>(n));
  return out;
}

std::string Md5Response(std::string_view user, std::string_view password, std::string_view salt) {
  std::string inner = Md5Hex(std::string(password) + std::string(user));
  return "md5" + Md5Hex(inner + std::string(salt));
}

Result<std::vector<AuthUser>> ParseAuthToml(std::string_view text, std::string_view source) {
  toml::table table;
  // toml++ reports syntax errors by exception; convert them here, at the library boundary.
  try {
    table = toml::parse(text, std::string(source));
  } catch (const toml::parse_error& e) {
    return InvalidArgument("{}: {}", source, e.description());
  }
  std::vector<AuthUser> users;
  const toml::array* list = table["user"].as_array();
  if (list == nullptr) return InvalidArgument("{}: expected [[user]] entries", source);
  for (const auto& node : *list) {
    const toml::table* entry = node.as_table();
    if (entry == nullptr) return InvalidArgument("{}: [[user]] must be a table", source);
    AuthUser user;
    auto name = (*entry)["name"].value<std::string>();
    auto password = (*entry)["password"].value<std::string>();
    if (!name || name->empty() || !password) return InvalidArgument("{}: every [[user]] needs name and password", source);
    user.name = *name;
    user.password = *password;
    if (auto method = (*entry)["method"].value<std::string>()) user.method = *method;
    if (user.method != "scram-sha-256" && user.method != "md5" && user.method != "password") {
      return InvalidArgument("{}: user {}: method must be scram-sha-256, md5 or password", source, user.name);
    }
    users.push_back(std::move(user));
  }
  return users;
}

Result<std::vector<AuthUser>> LoadAuthFile(const std::string& path) {
  std::ifstream in(path);
  if (!in) return IoError("cannot read auth file {}", path);
  std::stringstream text;
  text << in.rdbuf();
  return ParseAuthToml(text.str(), path);
}

ScramExchange::ScramExchange(std::string password, int iterations)
    : password_(std::move(password)), iterations_(iterations), salt_(RandomBytes(16)) {}

Result<std::string> ScramExchange::ServerFirst(std::string_view client_first) {
  // gs2 header: "n,," (no channel binding; "y,," when the client could but thinks we cannot).
  if (!(client_first.starts_with("n,") || client_first.starts_with("y,"))) {
    return Unauthenticated("SCRAM: channel binding is not supported");
  }
  size_t second_comma = client_first.find(',', 2);
  if (second_comma == std::string_view::npos) return Unauthenticated("SCRAM: malformed client-first-message");
  client_first_bare_ = std::string(client_first.substr(second_comma + 1));
  auto nonce = Attribute(client_first_bare_, 'r');
  if (!nonce || nonce->empty()) return Unauthenticated("SCRAM: client nonce missing");
  nonce_ = std::string(*nonce) + (server_nonce_.empty() ? Base64(RandomBytes(18)) : server_nonce_);
  server_first_ = fmt::format("r={},s={},i={}", nonce_, Base64(salt_), iterations_);
  return server_first_;
}

Result<std::string> ScramExchange::ServerFinal(std::string_view client_final) {
  if (server_first_.empty()) return Unauthenticated("SCRAM: out of order");
  auto nonce = Attribute(client_final, 'r');
  auto proof_text = Attribute(client_final, 'p');
  size_t proof_at = client_final.rfind(",p=");
  if (!nonce || !proof_text || proof_at == std::string_view::npos || *nonce != nonce_) {
    return Unauthenticated("SCRAM: malformed client-final-message");
  }
  FLOE_ASSIGN_OR_RETURN(std::string proof, Base64Decode(*proof_text));
  std::string salted(32, '\0');
  PKCS5_PBKDF2_HMAC(password_.data(), static_cast<int>(password_.size()),
                    reinterpret_cast<const unsigned char*>(salt_.data()), static_cast<int>(salt_.size()), iterations_,
                    EVP_sha256(), 32, reinterpret_cast<unsigned char*>(salted.data()));
  std::string client_key = Hmac(salted, "Client Key");
  std::string stored_key = Sha256(client_key);
  std::string auth_message =
      client_first_bare_ + "," + server_first_ + "," + std::string(client_final.substr(0, proof_at));
  std::string signature = Hmac(stored_key, auth_message);
  if (proof.size() != signature.size()) return Unauthenticated("password authentication failed");
  std::string recovered(proof.size(), '\0');
  for (size_t i = 0; i < proof.size(); ++i) recovered[i] = static_cast<char>(proof[i] ^ signature[i]);
  if (Sha256(recovered) != stored_key) return Unauthenticated("password authentication failed");
  std::string server_key = Hmac(salted, "Server Key");
  return "v=" + Base64(Hmac(server_key, auth_message));
}

}  // namespace floe::serve::pg

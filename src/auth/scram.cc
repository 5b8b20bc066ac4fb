#include "auth/scram.h"

#include <openssl/crypto.h>

#include <fmt/format.h>

#include "auth/secure_random.h"
#include "base/base64.h"

namespace floe::auth {
namespace {

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

std::string Base64(std::string_view bytes) { return Base64Encode(bytes); }

}  // namespace

std::optional<std::string> ScramClientUser(std::string_view client_first) {
  if (!(client_first.starts_with("n,") || client_first.starts_with("y,"))) return std::nullopt;
  size_t second_comma = client_first.find(',', 2);
  if (second_comma == std::string_view::npos) return std::nullopt;
  auto name = Attribute(client_first.substr(second_comma + 1), 'n');
  if (!name) return std::nullopt;
  // RFC 5802: ',' and '=' travel as =2C and =3D; any other '=' is malformed.
  std::string out;
  for (size_t i = 0; i < name->size(); ++i) {
    if ((*name)[i] != '=') {
      out.push_back((*name)[i]);
      continue;
    }
    std::string_view code = name->substr(i + 1, 2);
    if (code == "2C") {
      out.push_back(',');
    } else if (code == "3D") {
      out.push_back('=');
    } else {
      return std::nullopt;
    }
    i += 2;
  }
  return out;
}

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
  std::string server_nonce = server_nonce_;
  if (server_nonce.empty()) {
    FLOE_ASSIGN_OR_RETURN(std::string random, SecureRandomBytes(18));
    server_nonce = Base64(random);
  }
  nonce_ = std::string(*nonce) + server_nonce;
  server_first_ = fmt::format("r={},s={},i={}", nonce_, Base64(verifier_.salt), verifier_.iterations);
  return server_first_;
}

Result<std::string> ScramExchange::ServerFinal(std::string_view client_final) {
  if (server_first_.empty()) return Unauthenticated("SCRAM: out of order");
  auto nonce = Attribute(client_final, 'r');
  auto proof_text = Attribute(client_final, 'p');
  size_t proof_at = client_final.rfind(",p=");
  // RFC 5802 wants r to equal the server's nonce. librdkafka sends its own nonce followed by
  // the server's (which already starts with it), and Kafka brokers accept any r that ends with
  // the server's nonce; so does floe. The proof still covers r exactly as sent.
  if (!nonce || !proof_text || proof_at == std::string_view::npos || !nonce->ends_with(nonce_)) {
    return Unauthenticated("SCRAM: malformed client-final-message");
  }
  FLOE_ASSIGN_OR_RETURN(std::string proof, Base64Decode(*proof_text));
  std::string auth_message =
      client_first_bare_ + "," + server_first_ + "," + std::string(client_final.substr(0, proof_at));
  // ClientKey = ClientProof XOR HMAC(StoredKey, AuthMessage); the proof is right when
  // H(ClientKey) is StoredKey.
  std::string signature = ScramHmac(verifier_.stored_key, auth_message);
  if (proof.size() != signature.size()) return Unauthenticated("password authentication failed");
  std::string recovered(proof.size(), '\0');
  for (size_t i = 0; i < proof.size(); ++i) recovered[i] = static_cast<char>(proof[i] ^ signature[i]);
  std::string recovered_stored = ScramHash(recovered);
  if (recovered_stored.size() != verifier_.stored_key.size() ||
      CRYPTO_memcmp(recovered_stored.data(), verifier_.stored_key.data(), recovered_stored.size()) != 0) {
    return Unauthenticated("password authentication failed");
  }
  return "v=" + Base64(ScramHmac(verifier_.server_key, auth_message));
}

}  // namespace floe::auth

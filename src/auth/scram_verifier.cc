#include "auth/scram_verifier.h"

#include <openssl/crypto.h>
#include <openssl/evp.h>
#include <openssl/hmac.h>
#include <openssl/sha.h>

#include <charconv>

#include "auth/secure_random.h"
#include "base/base64.h"

namespace floe::auth {
namespace {

constexpr std::string_view kPrefix = "SCRAM-SHA-256$";
constexpr int kMaxIterations = 1 << 20;  // Beyond this a login would take seconds.

std::string SaltedPassword(std::string_view password, std::string_view salt, int iterations) {
  std::string salted(SHA256_DIGEST_LENGTH, '\0');
  PKCS5_PBKDF2_HMAC(password.data(), static_cast<int>(password.size()),
                    reinterpret_cast<const unsigned char*>(salt.data()), static_cast<int>(salt.size()), iterations,
                    EVP_sha256(), SHA256_DIGEST_LENGTH, reinterpret_cast<unsigned char*>(salted.data()));
  return salted;
}

}  // namespace

std::string ScramHmac(std::string_view key, std::string_view data) {
  unsigned char out[EVP_MAX_MD_SIZE];
  unsigned int length = 0;
  HMAC(EVP_sha256(), key.data(), static_cast<int>(key.size()), reinterpret_cast<const unsigned char*>(data.data()),
       data.size(), out, &length);
  return std::string(reinterpret_cast<char*>(out), length);
}

std::string ScramHash(std::string_view data) {
  unsigned char out[SHA256_DIGEST_LENGTH];
  SHA256(reinterpret_cast<const unsigned char*>(data.data()), data.size(), out);
  return std::string(reinterpret_cast<char*>(out), SHA256_DIGEST_LENGTH);
}

ScramVerifier DeriveScramVerifier(std::string_view password, std::string_view salt, int iterations) {
  std::string salted = SaltedPassword(password, salt, iterations);
  return ScramVerifier{.salt = std::string(salt),
                       .iterations = iterations,
                       .stored_key = ScramHash(ScramHmac(salted, "Client Key")),
                       .server_key = ScramHmac(salted, "Server Key")};
}

Result<ScramVerifier> MakeScramVerifier(std::string_view password, int iterations) {
  FLOE_ASSIGN_OR_RETURN(std::string salt, SecureRandomBytes(16));
  return DeriveScramVerifier(password, salt, iterations);
}

Result<ScramVerifier> DecoyScramVerifier() {
  ScramVerifier decoy;
  FLOE_ASSIGN_OR_RETURN(decoy.salt, SecureRandomBytes(16));
  FLOE_ASSIGN_OR_RETURN(decoy.stored_key, SecureRandomBytes(SHA256_DIGEST_LENGTH));
  FLOE_ASSIGN_OR_RETURN(decoy.server_key, SecureRandomBytes(SHA256_DIGEST_LENGTH));
  return decoy;
}

Result<ScramVerifier> ParseScramVerifier(std::string_view text) {
  auto malformed = [] {
    return InvalidArgument("a SCRAM verifier reads SCRAM-SHA-256$<iterations>:<salt>$<StoredKey>:<ServerKey>");
  };
  if (!text.starts_with(kPrefix)) return malformed();
  text.remove_prefix(kPrefix.size());
  size_t colon = text.find(':');
  size_t dollar = text.find('$');
  if (colon == std::string_view::npos || dollar == std::string_view::npos || colon > dollar) return malformed();
  size_t second_colon = text.find(':', dollar);
  if (second_colon == std::string_view::npos) return malformed();
  ScramVerifier verifier;
  std::string_view iterations = text.substr(0, colon);
  auto [end, ec] = std::from_chars(iterations.data(), iterations.data() + iterations.size(), verifier.iterations);
  if (ec != std::errc() || end != iterations.data() + iterations.size() || verifier.iterations < kScramIterations ||
      verifier.iterations > kMaxIterations) {
    return InvalidArgument("a SCRAM verifier's iteration count must be {} to {}", kScramIterations, kMaxIterations);
  }
  auto salt = Base64Decode(text.substr(colon + 1, dollar - colon - 1));
  auto stored = Base64Decode(text.substr(dollar + 1, second_colon - dollar - 1));
  auto server = Base64Decode(text.substr(second_colon + 1));
  if (!salt || !stored || !server || salt->empty() || stored->size() != SHA256_DIGEST_LENGTH ||
      server->size() != SHA256_DIGEST_LENGTH) {
    return malformed();
  }
  verifier.salt = std::move(*salt);
  verifier.stored_key = std::move(*stored);
  verifier.server_key = std::move(*server);
  return verifier;
}

std::string FormatScramVerifier(const ScramVerifier& verifier) {
  return fmt::format("{}{}:{}${}:{}", kPrefix, verifier.iterations, Base64Encode(verifier.salt),
                     Base64Encode(verifier.stored_key), Base64Encode(verifier.server_key));
}

bool VerifyPassword(const ScramVerifier& verifier, std::string_view password) {
  std::string salted = SaltedPassword(password, verifier.salt, verifier.iterations);
  std::string stored = ScramHash(ScramHmac(salted, "Client Key"));
  return stored.size() == verifier.stored_key.size() &&
         CRYPTO_memcmp(stored.data(), verifier.stored_key.data(), stored.size()) == 0;
}

}  // namespace floe::auth

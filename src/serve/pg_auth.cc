#include "serve/pg_auth.h"

#include <openssl/evp.h>

#include <fmt/format.h>

#include "base/base64.h"

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

}  // namespace

std::string Md5Response(std::string_view user, std::string_view password, std::string_view salt) {
  std::string inner = Md5Hex(std::string(password) + std::string(user));
  return "md5" + Md5Hex(inner + std::string(salt));
}

}  // namespace floe::serve::pg

#include "auth/secure_random.h"

#include <openssl/err.h>
#include <openssl/rand.h>

#include <cstring>

namespace floe::auth {

Result<std::string> SecureRandomBytes(size_t n) {
  std::string out(n, '\0');
  if (n > 0 && RAND_bytes(reinterpret_cast<unsigned char*>(out.data()), static_cast<int>(n)) != 1) {
    return Internal("the system's secure random generator failed (OpenSSL error {:#x})", ERR_get_error());
  }
  return out;
}

Result<uint64_t> SecureRandomU64() {
  FLOE_ASSIGN_OR_RETURN(std::string bytes, SecureRandomBytes(sizeof(uint64_t)));
  uint64_t value = 0;
  std::memcpy(&value, bytes.data(), sizeof(value));
  return value;
}

}  // namespace floe::auth

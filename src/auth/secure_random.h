// Unpredictable bytes for everything an attacker must not guess: SCRAM salts and nonces, OAuth
// tokens, PostgreSQL cancel keys, Trino paging slugs, generated passwords. OpenSSL's CSPRNG,
// never a seeded std:: engine. Any thread.
#pragma once

#include <cstdint>
#include <string>

#include "base/result.h"

namespace floe::auth {

// `n` bytes from RAND_bytes; kInternal when it fails (its return value is checked: on failure
// the buffer is not random and must not be used).
Result<std::string> SecureRandomBytes(size_t n);
Result<uint64_t> SecureRandomU64();

}  // namespace floe::auth

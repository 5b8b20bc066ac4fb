// Password authentication for the PostgreSQL port: the users of `--auth-file` (TOML,
// `[[user]] name = "..." password = "..." method = "scram-sha-256|md5|password"`), MD5's
// salted hash, and the server side of SCRAM-SHA-256 (RFC 5802/7677, as PostgreSQL uses it:
// no channel binding). Users are immutable once loaded; a ScramExchange belongs to one
// connection's coroutine.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "base/result.h"

namespace floe::serve::pg {

struct AuthUser {
  std::string name;
  std::string password;
  std::string method = "scram-sha-256";  // "scram-sha-256", "md5" or "password" (cleartext).
};

Result<std::vector<AuthUser>> LoadAuthFile(const std::string& path);
Result<std::vector<AuthUser>> ParseAuthToml(std::string_view text, std::string_view source);

// "md5" + md5hex(md5hex(password + user) + salt): what the client sends for AuthenticationMD5Password.
std::string Md5Response(std::string_view user, std::string_view password, std::string_view salt);
std::string RandomBytes(size_t n);

class ScramExchange {
 public:
  explicit ScramExchange(std::string password, int iterations = 4096);
  // A fixed salt and server nonce instead of random ones: for known-answer tests (RFC 7677).
  ScramExchange(std::string password, int iterations, std::string salt, std::string server_nonce)
      : password_(std::move(password)), iterations_(iterations), salt_(std::move(salt)),
        server_nonce_(std::move(server_nonce)) {}

  // client-first-message ("n,,n=,r=NONCE") -> server-first-message.
  Result<std::string> ServerFirst(std::string_view client_first);
  // client-final-message ("c=biws,r=NONCE,p=PROOF") -> server-final-message ("v=SIGNATURE");
  // kUnauthenticated when the proof is wrong.
  Result<std::string> ServerFinal(std::string_view client_final);

 private:
  std::string password_;
  int iterations_;
  std::string salt_;
  std::string server_nonce_;        // Empty: a random one.
  std::string nonce_;               // Client nonce + server nonce.
  std::string client_first_bare_;
  std::string server_first_;
};

std::string Base64(std::string_view bytes);
Result<std::string> Base64Decode(std::string_view text);

}  // namespace floe::serve::pg

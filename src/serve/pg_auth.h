// Password authentication for the PostgreSQL port: the `--auth-file` users and SCRAM-SHA-256
// come from src/auth (shared with the other listeners); MD5's salted hash is PostgreSQL's own.
#pragma once

#include <string>
#include <string_view>

#include "auth/scram.h"
#include "auth/users.h"
#include "base/base64.h"

namespace floe::serve::pg {

using auth::AuthUser;
using auth::LoadAuthFile;
using auth::ParseAuthToml;
using auth::ScramExchange;
inline std::string Base64(std::string_view bytes) { return Base64Encode(bytes); }

// "md5" + md5hex(md5hex(password + user) + salt): what the client sends for AuthenticationMD5Password.
std::string Md5Response(std::string_view user, std::string_view password, std::string_view salt);

}  // namespace floe::serve::pg

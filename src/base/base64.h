// Standard base64 (RFC 4648 section 4: the + and / alphabet, '=' padding), as Trino's binary
// values, `floe parquet cat`, SCRAM and HTTP basic authentication use it.
#pragma once

#include <string>
#include <string_view>

#include "base/result.h"

namespace floe {

std::string Base64Encode(std::string_view bytes);
void AppendBase64(std::string_view bytes, std::string* out);
// Strict: padded to a multiple of four characters, standard alphabet only.
Result<std::string> Base64Decode(std::string_view text);

}  // namespace floe

// JSON Pointer (RFC 6901) reference tokens, for the locations JSON Schema errors name.
#pragma once

#include <string>
#include <string_view>

namespace floe::json_schema {

// One reference token escaped: '~' as "~0", '/' as "~1".
inline std::string EscapePointerToken(std::string_view token) {
  std::string out;
  for (char c : token) {
    if (c == '~') {
      out += "~0";
    } else if (c == '/') {
      out += "~1";
    } else {
      out += c;
    }
  }
  return out;
}

}  // namespace floe::json_schema

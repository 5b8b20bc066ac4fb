#include "io/object_key.h"

namespace floe::io {
namespace {

// Checks every '/'-separated segment; `allow_open_end` lets the last segment be empty or partial
// (a prefix), but never "." or "..".
Status CheckSegments(std::string_view text, bool allow_open_end, std::string_view what) {
  if (text.find('\0') != std::string_view::npos) {
    return InvalidArgument("{} contains a NUL byte", what);
  }
  if (!text.empty() && text.front() == '/') {
    return InvalidArgument("{} '{}' must be relative (no leading '/')", what, text);
  }
  size_t start = 0;
  while (true) {
    size_t end = text.find('/', start);
    bool last = end == std::string_view::npos;
    std::string_view segment = text.substr(start, last ? std::string_view::npos : end - start);
    if (segment == "..") {
      return InvalidArgument("{} '{}' climbs out of the store with '..'", what, text);
    }
    if (segment == "." && !(last && allow_open_end)) {
      return InvalidArgument("{} '{}' has a '.' segment", what, text);
    }
    if (segment.empty() && !(last && allow_open_end)) {
      return InvalidArgument("{} '{}' has an empty segment", what, text);
    }
    if (segment.starts_with(kTempFilePrefix)) {
      return InvalidArgument("{} '{}' uses the reserved name prefix '{}'", what, text, kTempFilePrefix);
    }
    if (last) break;
    start = end + 1;
  }
  return OkStatus();
}

}  // namespace

Status ValidateKey(std::string_view key) {
  if (key.empty()) return InvalidArgument("object key is empty");
  return CheckSegments(key, /*allow_open_end=*/false, "object key");
}

Status ValidatePrefix(std::string_view prefix) {
  if (prefix.empty()) return OkStatus();
  return CheckSegments(prefix, /*allow_open_end=*/true, "list prefix");
}

}  // namespace floe::io

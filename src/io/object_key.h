// Object key rules shared by every store: a key is a relative path of non-empty segments
// separated by '/', with no "." or ".." segment, no NUL byte and no leading '/'. Enforcing
// this in one place is what keeps a local store's keys inside its root folder and keeps the
// same keys valid on S3.
#pragma once

#include <string_view>

#include "base/result.h"

namespace floe::io {

// Segments starting with this are a local store's in-flight temporary files; keys may not use it.
inline constexpr std::string_view kTempFilePrefix = ".floe-tmp-";

// An object key: "db/t/metadata/v1.metadata.json".
Status ValidateKey(std::string_view key);

// A listing prefix: any leading part of a key ("db/t/meta", "db/", ""), so it may end inside a
// segment or with '/', but it may not climb out of the root.
Status ValidatePrefix(std::string_view prefix);

}  // namespace floe::io

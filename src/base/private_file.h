// Files that hold secrets (the auth file, the pipeline's client settings): written so that no
// other user can read them at any moment, and checked before they are trusted. Stateless; any
// thread.
#pragma once

#include <string>
#include <string_view>

#include "base/result.h"

namespace floe {

// Replaces `path` with `contents` through a temporary file in the same folder that is created
// with mode 0600 (never widened and then narrowed, which leaves a window in which others can
// open it), fsync'd and renamed over `path`. The result is mode 0600 whatever `path` was.
Status WritePrivateFile(const std::string& path, std::string_view contents);

// kPermissionDenied when `path` may be read or written by its group or by others (any of the
// mode bits 077), naming `what` and the fix; kIo when it cannot be examined.
Status CheckPrivateFile(const std::string& path, std::string_view what);

}  // namespace floe

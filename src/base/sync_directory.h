// SyncDirectory: fsyncs a directory, so that a file created or renamed in it survives a crash
// (the rename itself lives in the directory, not in the file). The last step of every
// write-beside-then-rename update.
#pragma once

#include <string>

#include "base/result.h"

namespace floe {

Status SyncDirectory(const std::string& dir);

}  // namespace floe

// OpenRegularFile: opens a path for reading and refuses anything but a regular file (a
// directory, pipe or device), so readers that need the size up front fail early with a clear
// error. Used by the Parquet local input file.
#pragma once

#include <cstdint>
#include <string>

#include "base/result.h"

namespace floe {

struct OpenedFile {
  int fd = -1;  // Owned by the caller from here on.
  uint64_t size = 0;
};

Result<OpenedFile> OpenRegularFile(const std::string& path);

}  // namespace floe

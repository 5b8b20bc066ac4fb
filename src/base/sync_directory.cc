#include "base/sync_directory.h"

#include <fcntl.h>
#include <unistd.h>

#include <cerrno>

namespace floe {

Status SyncDirectory(const std::string& dir) {
  int fd = ::open(dir.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  if (fd < 0) return ErrnoError(errno, "open", dir);
  int rc = ::fsync(fd);
  int err = errno;
  ::close(fd);
  if (rc != 0) return ErrnoError(err, "fsync", dir);
  return OkStatus();
}

}  // namespace floe

#include "base/private_file.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstring>

namespace floe {

Status WritePrivateFile(const std::string& path, std::string_view contents) {
  std::string temporary = fmt::format("{}.tmp.{}", path, ::getpid());
  ::unlink(temporary.c_str());  // A leftover of a crashed writer of this same pid.
  // O_EXCL and O_NOFOLLOW: never write through a file or link someone else prepared.
  int fd = ::open(temporary.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0600);
  if (fd < 0) return IoError("creating {}: {}", temporary, std::strerror(errno));
  // The umask can only narrow 0600; fchmod makes it exactly 0600 regardless.
  bool ok = ::fchmod(fd, 0600) == 0;
  size_t written = 0;
  while (ok && written < contents.size()) {
    ssize_t n = ::write(fd, contents.data() + written, contents.size() - written);
    if (n < 0 && errno == EINTR) continue;
    ok = n > 0;
    if (ok) written += static_cast<size_t>(n);
  }
  ok = ok && ::fsync(fd) == 0;
  int saved = errno;
  ::close(fd);
  if (!ok || ::rename(temporary.c_str(), path.c_str()) != 0) {
    if (ok) saved = errno;
    ::unlink(temporary.c_str());
    return IoError("writing {}: {}", path, std::strerror(saved));
  }
  return OkStatus();
}

Status CheckPrivateFile(const std::string& path, std::string_view what) {
  struct stat info {};
  if (::stat(path.c_str(), &info) != 0) return IoError("cannot read {} {}: {}", what, path, std::strerror(errno));
  if ((info.st_mode & 077) != 0) {
    return PermissionDenied("{} {} holds secrets but its group or others may access it (mode {:04o}); run chmod 600 {}",
                            what, path, info.st_mode & 07777, path);
  }
  return OkStatus();
}

}  // namespace floe

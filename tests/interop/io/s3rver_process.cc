#include "s3rver_process.h"

#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstdlib>
#include <memory>

#include "base/exec_image.h"

namespace floe::io::testing {

Result<std::unique_ptr<S3rverProcess>> S3rverProcess::Start(const std::string& source_dir, const std::string& data_dir,
                                                            const std::string& bucket) {
  std::string script = source_dir + "/tests/interop/io/s3rver_launch.mjs";
  ExecImage image({"node", script, data_dir, bucket}, {"NODE_PATH=" + source_dir + "/tests/interop/node_modules"});
  int to_child[2], from_child[2];
  if (::pipe(to_child) != 0 || ::pipe(from_child) != 0) return ErrnoError(errno, "pipe", "s3rver");
  pid_t pid = ::fork();
  if (pid < 0) return ErrnoError(errno, "fork", "s3rver");
  if (pid == 0) {
    ::dup2(to_child[0], 0);
    ::dup2(from_child[1], 1);
    ::close(to_child[1]);
    ::close(from_child[0]);
    image.ExecSearchingPath();
    ::_exit(127);
  }
  ::close(to_child[0]);
  ::close(from_child[1]);
  // Read "PORT <n>\n".
  std::string line;
  char c;
  while (line.size() < 64 && ::read(from_child[0], &c, 1) == 1 && c != '\n') line.push_back(c);
  ::close(from_child[0]);
  auto fail = [&](std::string why) -> Result<std::unique_ptr<S3rverProcess>> {
    ::close(to_child[1]);
    ::kill(pid, SIGTERM);
    ::waitpid(pid, nullptr, 0);
    return Unavailable("s3rver did not start ({}): got '{}'", why, line);
  };
  if (!line.starts_with("PORT ")) return fail("no port line; is node installed and `scripts/install-deps` run?");
  int port = std::atoi(line.c_str() + 5);
  if (port <= 0 || port > 65535) return fail("bad port");
  return std::unique_ptr<S3rverProcess>(new S3rverProcess(pid, to_child[1], static_cast<uint16_t>(port)));
}

S3rverProcess::~S3rverProcess() {
  ::close(stdin_fd_);
  ::kill(pid_, SIGTERM);
  ::waitpid(pid_, nullptr, 0);
}

}  // namespace floe::io::testing

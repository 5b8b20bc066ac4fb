// Test-only: runs s3rver (npm, tests/interop/node_modules) as a child process on a free
// loopback port, with one bucket, for the S3 interop tests and the S3 benchmark. The child is
// stopped (SIGTERM, then waited for) when this object is destroyed; it also exits by itself
// if this process dies, because its stdin closes.
#pragma once

#include <sys/types.h>

#include <string>

#include "base/result.h"

namespace floe::io::testing {

class S3rverProcess {
 public:
  // `source_dir` is the floe checkout (for the launcher and node_modules); `data_dir` an empty
  // folder s3rver stores objects in.
  static Result<std::unique_ptr<S3rverProcess>> Start(const std::string& source_dir, const std::string& data_dir,
                                                      const std::string& bucket);
  ~S3rverProcess();

  uint16_t port() const { return port_; }
  std::string endpoint() const { return "http://127.0.0.1:" + std::to_string(port_); }

 private:
  S3rverProcess(pid_t pid, int stdin_fd, uint16_t port) : pid_(pid), stdin_fd_(stdin_fd), port_(port) {}
  pid_t pid_;
  int stdin_fd_;
  uint16_t port_;
};

}  // namespace floe::io::testing

// Subprocess: a child program started with fork/exec, signalled and reaped — `floe up
// --processes` supervises its roles with it, and tests start servers with it.
//
// The destructor kills (SIGKILL) and reaps a child still running, so no child outlives its
// owner by accident. Output goes to a log file (appended). Owned by one thread.
#pragma once

#include <sys/types.h>

#include <chrono>
#include <string>
#include <vector>

#include "base/result.h"

namespace floe {

class Subprocess {
 public:
  // Starts `argv` (argv[0] a path) with `extra_env` ("NAME=value") added to the environment;
  // stdout and stderr are appended to `log_path`.
  static Result<std::unique_ptr<Subprocess>> Start(std::vector<std::string> argv, const std::string& log_path,
                                                   std::vector<std::string> extra_env = {});
  ~Subprocess();
  Subprocess(const Subprocess&) = delete;
  Subprocess& operator=(const Subprocess&) = delete;

  pid_t pid() const { return pid_; }
  bool Running();
  // Sends `signal`, then waits up to `timeout` for the exit. Returns the exit code (128 +
  // signal number when killed by one), or -1 if it did not exit in time.
  int Stop(int signal, std::chrono::milliseconds timeout = std::chrono::seconds(10));
  // Waits for the child to exit by itself; -1 on timeout.
  int Wait(std::chrono::milliseconds timeout);
  // The exit code once the child has exited, -1 while it runs.
  int exit_code() const { return exit_code_; }

 private:
  Subprocess() = default;
  pid_t pid_ = -1;
  int exit_code_ = -1;
};

// Waits until something accepts TCP connections on host:port; false on timeout.
bool WaitForTcpPort(const std::string& host, int port, std::chrono::milliseconds timeout);

}  // namespace floe

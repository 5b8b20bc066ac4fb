// ChildProcess: a long-running program a test starts (a broker, a catalog, `floe up`), waits
// for, signals (SIGTERM for a clean stop, SIGKILL for crash tests) and reaps.
//
// The destructor kills and reaps a child still running, so a failing test leaves no server
// behind. Output goes to a log file the test can print on failure. Owned by one test thread.
#pragma once

#include <sys/types.h>

#include <chrono>
#include <string>
#include <vector>

namespace floe::testing {

class ChildProcess {
 public:
  // Starts argv (argv[0] a path) with `extra_env` added; stdout and stderr go to `log_path`.
  ChildProcess(std::vector<std::string> argv, std::string log_path, std::vector<std::string> extra_env = {});
  ~ChildProcess();
  ChildProcess(const ChildProcess&) = delete;
  ChildProcess& operator=(const ChildProcess&) = delete;

  pid_t pid() const { return pid_; }
  bool running();
  // Sends `signal` and waits up to `timeout` for the exit; returns the exit code (128 + signal
  // when killed), or -1 if it did not exit in time.
  int Stop(int signal, std::chrono::milliseconds timeout = std::chrono::seconds(10));
  // Waits for the child to exit by itself; -1 on timeout.
  int Wait(std::chrono::milliseconds timeout);
  std::string ReadLog() const;

 private:
  pid_t pid_ = -1;
  int exit_code_ = -1;
  std::string log_path_;
};

// A TCP port on 127.0.0.1 that was free a moment ago (bound, then released).
int FreeLoopbackPort();

// Waits until something accepts TCP connections on 127.0.0.1:port; false on timeout.
bool WaitForPort(int port, std::chrono::milliseconds timeout = std::chrono::seconds(20));

// A fresh temporary folder under $TMPDIR, removed with its contents by the destructor.
class TempFolder {
 public:
  TempFolder();
  ~TempFolder();
  const std::string& path() const { return path_; }

 private:
  std::string path_;
};

}  // namespace floe::testing

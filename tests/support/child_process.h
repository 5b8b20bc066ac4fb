// Test support for programs a test starts (a broker, a catalog, `floe up`): a Subprocess that
// must start (the test fails otherwise), with its log at hand for failure messages; free
// loopback ports; temporary folders.
#pragma once

#include <chrono>
#include <memory>
#include <string>
#include <vector>

#include "base/subprocess.h"

namespace floe::testing {

class ChildProcess {
 public:
  // Starts argv (argv[0] a path) with `extra_env` added; stdout and stderr go to `log_path`.
  // Throws if the program cannot be started at all (a broken test setup).
  ChildProcess(std::vector<std::string> argv, std::string log_path, std::vector<std::string> extra_env = {});

  pid_t pid() const { return process_->pid(); }
  bool running() { return process_->Running(); }
  int Stop(int signal, std::chrono::milliseconds timeout = std::chrono::seconds(10)) {
    return process_->Stop(signal, timeout);
  }
  int Wait(std::chrono::milliseconds timeout) { return process_->Wait(timeout); }
  std::string ReadLog() const;

 private:
  std::unique_ptr<Subprocess> process_;
  std::string log_path_;
};

// A TCP port on 127.0.0.1 that was free a moment ago (bound, then released), below the kernel's
// ephemeral range where the machine allows, and never the same twice in one process.
int FreeLoopbackPort();

// Waits until something accepts TCP connections on 127.0.0.1:port; false on timeout.
inline bool WaitForPort(int port, std::chrono::milliseconds timeout = std::chrono::seconds(20)) {
  return WaitForTcpPort("127.0.0.1", port, timeout);
}

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

#include "base/subprocess.h"

#include <arpa/inet.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <signal.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

#include <thread>

#include "base/exec_image.h"

namespace floe {

Result<std::unique_ptr<Subprocess>> Subprocess::Start(std::vector<std::string> argv, const std::string& log_path,
                                                      std::vector<std::string> extra_env) {
  if (argv.empty()) return InvalidArgument("no program to start");
  std::string program = argv[0];
  ExecImage image(std::move(argv), extra_env);
  int log_fd = open(log_path.c_str(), O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0644);
  if (log_fd < 0) return ErrnoError(errno, "open", log_path);
  std::unique_ptr<Subprocess> process(new Subprocess());
  process->pid_ = fork();
  if (process->pid_ < 0) {
    int error = errno;
    close(log_fd);
    return ErrnoError(error, "fork for", program);
  }
  if (process->pid_ == 0) {
    dup2(log_fd, 1);
    dup2(log_fd, 2);
    // Signals blocked by the parent (floe up waits for SIGTERM with sigwait) must not stay
    // blocked in the child, or it could never be stopped cleanly.
    sigset_t none;
    sigemptyset(&none);
    sigprocmask(SIG_SETMASK, &none, nullptr);
    image.Exec();
    _exit(127);
  }
  close(log_fd);
  return process;
}

Subprocess::~Subprocess() {
  if (Running()) Stop(SIGKILL);
}

bool Subprocess::Running() {
  if (pid_ <= 0 || exit_code_ >= 0) return false;
  int status = 0;
  if (waitpid(pid_, &status, WNOHANG) == 0) return true;
  exit_code_ = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
  return false;
}

int Subprocess::Wait(std::chrono::milliseconds timeout) {
  auto deadline = std::chrono::steady_clock::now() + timeout;
  while (Running()) {
    if (std::chrono::steady_clock::now() > deadline) return -1;
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
  }
  return exit_code_;
}

int Subprocess::Stop(int signal, std::chrono::milliseconds timeout) {
  if (Running()) kill(pid_, signal);
  return Wait(timeout);
}

bool WaitForTcpPort(const std::string& host, int port, std::chrono::milliseconds timeout) {
  auto deadline = std::chrono::steady_clock::now() + timeout;
  sockaddr_in addr{};
  addr.sin_family = AF_INET;
  addr.sin_port = htons(static_cast<uint16_t>(port));
  if (inet_pton(AF_INET, host.c_str(), &addr.sin_addr) != 1) return false;
  while (std::chrono::steady_clock::now() < deadline) {
    int fd = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
    bool connected = connect(fd, reinterpret_cast<sockaddr*>(&addr), sizeof(addr)) == 0;
    close(fd);
    if (connected) return true;
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
  }
  return false;
}

}  // namespace floe

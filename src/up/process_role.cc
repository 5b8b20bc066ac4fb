#include "up/process_role.h"

#include <signal.h>

#include <fstream>

#include <fmt/format.h>

namespace floe::up {
namespace {

// The last `max_bytes` of a log, for an error message about a child that would not start.
std::string LogTail(const std::string& path, size_t max_bytes = 2000) {
  std::ifstream in(path, std::ios::binary | std::ios::ate);
  if (!in) return "";
  auto size = static_cast<size_t>(in.tellg());
  size_t start = size > max_bytes ? size - max_bytes : 0;
  in.seekg(static_cast<std::streamoff>(start));
  std::string tail(size - start, '\0');
  in.read(tail.data(), static_cast<std::streamsize>(tail.size()));
  return tail;
}

}  // namespace

ProcessRole::ProcessRole(std::string name, std::string describe, std::vector<std::string> argv, std::string log_path,
                         std::string host, int ready_port)
    : name_(std::move(name)),
      describe_(std::move(describe)),
      argv_(std::move(argv)),
      log_path_(std::move(log_path)),
      host_(std::move(host)),
      ready_port_(ready_port) {}

Status ProcessRole::Start() {
  processes_.resize(static_cast<size_t>(copies_));
  for (int copy = 1; copy <= copies_; ++copy) {
    std::unique_ptr<Subprocess>& process = processes_[static_cast<size_t>(copy - 1)];
    if (process && process->Running()) continue;  // Only the copies that died start again.
    std::vector<std::string> argv = copy_argv_ ? copy_argv_(argv_, copy) : argv_;
    std::string log_path = CopyLogPath(copy);
    FLOE_ASSIGN_OR_RETURN_CTX(process, Subprocess::Start(argv, log_path), fmt::format("starting the {}", name_));
    if (ready_port_ > 0 && !WaitForTcpPort(host_, ready_port_, std::chrono::seconds(30))) {
      int code = process->Stop(SIGKILL);
      return Unavailable("the {} (pid {}) did not accept connections on {}:{} (exit code {}); its log {} ends:\n{}",
                         name_, process->pid(), host_, ready_port_, code, log_path, LogTail(log_path));
    }
  }
  return OkStatus();
}

void ProcessRole::Stop() {
  for (auto& process : processes_) {
    if (!process) continue;
    if (process->Stop(SIGTERM, std::chrono::seconds(15)) < 0) process->Stop(SIGKILL);
    process.reset();
  }
}

void ProcessRole::Kill() {
  for (auto& process : processes_) {
    if (process) process->Stop(SIGKILL);
  }
}

void ProcessRole::SetCopies(int copies, CopyArgv copy_argv) {
  copies_ = copies;
  copy_argv_ = std::move(copy_argv);
}

std::string ProcessRole::CopyLogPath(int copy) const {
  if (copy == 1) return log_path_;
  size_t dot = log_path_.rfind('.');
  size_t slash = log_path_.rfind('/');
  if (dot == std::string::npos || (slash != std::string::npos && dot < slash)) {
    return fmt::format("{}-{}", log_path_, copy);
  }
  return fmt::format("{}-{}{}", log_path_.substr(0, dot), copy, log_path_.substr(dot));
}

void ProcessRole::SetArgument(std::string_view flag, std::string value) {
  for (size_t i = 0; i + 1 < argv_.size(); ++i) {
    if (argv_[i] == flag) {
      argv_[i + 1] = std::move(value);
      return;
    }
  }
  argv_.emplace_back(flag);
  argv_.push_back(std::move(value));
}

void ProcessRole::SetRepeatedArgument(std::string_view flag, const std::vector<std::string>& values) {
  std::vector<std::string> kept;
  for (size_t i = 0; i < argv_.size(); ++i) {
    if (argv_[i] == flag && i + 1 < argv_.size()) {
      ++i;  // Its value goes too.
      continue;
    }
    kept.push_back(std::move(argv_[i]));
  }
  for (const std::string& value : values) {
    kept.emplace_back(flag);
    kept.push_back(value);
  }
  argv_ = std::move(kept);
}

bool ProcessRole::Running() {
  if (processes_.size() != static_cast<size_t>(copies_)) return false;
  for (auto& process : processes_) {
    if (!process || !process->Running()) return false;
  }
  return true;
}

std::string ProcessRole::Describe() const {
  std::string pids;
  for (const auto& process : processes_)
    pids += fmt::format("{}{}", pids.empty() ? "" : ", ", process ? process->pid() : -1);
  if (pids.empty()) pids = "-1";
  if (copies_ == 1) return fmt::format("{} (pid {}, log {})", describe_, pids, log_path_);
  return fmt::format("{} ({} processes: pids {}, logs {} ...)", describe_, copies_, pids, log_path_);
}

}  // namespace floe::up

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
  FLOE_ASSIGN_OR_RETURN_CTX(process_, Subprocess::Start(argv_, log_path_), fmt::format("starting the {}", name_));
  if (ready_port_ > 0 && !WaitForTcpPort(host_, ready_port_, std::chrono::seconds(30))) {
    int code = process_->Stop(SIGKILL);
    return Unavailable("the {} (pid {}) did not accept connections on {}:{} (exit code {}); its log {} ends:\n{}",
                       name_, process_->pid(), host_, ready_port_, code, log_path_, LogTail(log_path_));
  }
  return OkStatus();
}

void ProcessRole::Stop() {
  if (!process_) return;
  if (process_->Stop(SIGTERM, std::chrono::seconds(15)) < 0) process_->Stop(SIGKILL);
  process_.reset();
}

void ProcessRole::Kill() {
  if (process_) process_->Stop(SIGKILL);
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

bool ProcessRole::Running() { return process_ && process_->Running(); }

std::string ProcessRole::Describe() const {
  return fmt::format("{} (pid {}, log {})", describe_, process_ ? process_->pid() : -1, log_path_);
}

}  // namespace floe::up

#include "base/exec_image.h"

#include <unistd.h>

#include <string_view>

extern char** environ;

namespace floe {

namespace {

std::string_view VariableName(std::string_view assignment) {
  return assignment.substr(0, assignment.find('='));
}

}  // namespace

ExecImage::ExecImage(std::vector<std::string> argv, const std::vector<std::string>& extra_env) {
  size_t argc = argv.size();
  strings_ = std::move(argv);
  for (char** variable = environ; variable != nullptr && *variable != nullptr; ++variable) {
    std::string_view name = VariableName(*variable);
    bool replaced = false;
    for (const auto& extra : extra_env) replaced = replaced || VariableName(extra) == name;
    if (!replaced) strings_.emplace_back(*variable);
  }
  strings_.insert(strings_.end(), extra_env.begin(), extra_env.end());
  // Pointers are taken only now: strings_ no longer grows, so they stay valid.
  for (size_t i = 0; i < strings_.size(); ++i) (i < argc ? argv_ : envp_).push_back(strings_[i].data());
  argv_.push_back(nullptr);
  envp_.push_back(nullptr);
}

void ExecImage::Exec() const { execve(argv_[0], argv_.data(), envp_.data()); }

void ExecImage::ExecSearchingPath() const { execvpe(argv_[0], argv_.data(), envp_.data()); }

}  // namespace floe

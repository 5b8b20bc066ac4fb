// ExecImage: the argument and environment arrays a forked child hands to execve, built before
// fork.
//
// After fork in a threaded process the child may only make async-signal-safe calls: another
// thread may have held the allocator's lock at the moment of fork, and in the child nobody will
// ever release it. A child that builds its argv with push_back, or adds a variable with putenv
// or setenv, can hang forever (seen under ASan). Everything is therefore allocated here, in the
// parent.
#pragma once

#include <string>
#include <vector>

namespace floe {

class ExecImage {
 public:
  // `argv[0]` is the program (a path for Exec, a name looked up in PATH for ExecSearchingPath).
  // `extra_env` entries ("NAME=value") are added to this process's environment, replacing any
  // variable of the same name.
  ExecImage(std::vector<std::string> argv, const std::vector<std::string>& extra_env);
  ExecImage(const ExecImage&) = delete;
  ExecImage& operator=(const ExecImage&) = delete;

  // In the child: replace the process image. Returns only if exec failed.
  void Exec() const;
  void ExecSearchingPath() const;

 private:
  std::vector<std::string> strings_;  // argv, then the environment; the pointers below point in here.
  std::vector<char*> argv_;
  std::vector<char*> envp_;
};

}  // namespace floe

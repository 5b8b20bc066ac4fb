// Runs a child process and captures its output, for tests that drive the floe binary.
#pragma once

#include <string>
#include <vector>

namespace floe::testing {

struct ProcessOutput {
  int exit_code = -1;  // The exit status, or 128 + signal number when killed by a signal.
  std::string out;
  std::string err;
};

// Runs `argv` (argv[0] a path) with `extra_env` ("NAME=value") added to the environment.
ProcessOutput RunProcess(const std::vector<std::string>& argv, const std::vector<std::string>& extra_env = {});

// The floe binary under test: $FLOE_BIN.
std::string FloeBinary();

}  // namespace floe::testing

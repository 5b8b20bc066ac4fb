// ProcessRole: a role run as its own child process (`floe up --processes`), so that a box of
// the pipeline can really be taken down — killed, even — and brought back.
//
// The child is this same binary with the role's subcommand (`floe broker ...`). A child that
// dies while it is meant to run is restarted by the Pipeline's supervisor; one taken down on
// purpose stays down until brought up. A role may run several copies of its child (the stream
// job's workers, each a `floe stream` of the same consumer group): they start, stop and are
// killed together, and a copy that died is started again alone. Called from the pipeline's
// threads under its lock.
#pragma once

#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "base/subprocess.h"
#include "up/role.h"

namespace floe::up {

class ProcessRole final : public Role {
 public:
  // `ready_port` > 0: Start waits until the child accepts connections there.
  ProcessRole(std::string name, std::string describe, std::vector<std::string> argv, std::string log_path,
              std::string host, int ready_port);
  ~ProcessRole() override { Stop(); }

  std::string_view name() const override { return name_; }
  std::string Describe() const override;
  Status Start() override;
  void Stop() override;

  // SIGKILL, as a crash would: nothing is flushed or closed cleanly.
  void Kill();
  // Replaces the value after `flag` in the child's arguments, for its next start.
  void SetArgument(std::string_view flag, std::string value);
  // Replaces every `flag VALUE` pair of the child's arguments with one pair per value.
  void SetRepeatedArgument(std::string_view flag, const std::vector<std::string>& values);
  void set_describe(std::string describe) { describe_ = std::move(describe); }
  // The command line of copy `copy` (1-based), made from the role's shared one.
  using CopyArgv = std::function<std::vector<std::string>(std::vector<std::string> argv, int copy)>;
  // Runs `copies` children from the next start on; copy k > 1 logs to the log path with "-k"
  // before its extension (stream.log, stream-2.log, ...).
  void SetCopies(int copies, CopyArgv copy_argv);
  int copies() const { return copies_; }
  // The log file of copy `copy` (1-based).
  std::string CopyLogPath(int copy) const;
  // Whether every copy runs.
  bool Running();
  int restarts() const { return restarts_; }
  void CountRestart() { ++restarts_; }

 private:
  std::string name_;
  std::string describe_;
  std::vector<std::string> argv_;
  std::string log_path_;
  std::string host_;
  int ready_port_;
  int copies_ = 1;
  CopyArgv copy_argv_;
  std::vector<std::unique_ptr<Subprocess>> processes_;  // One per copy; null when not started.
  int restarts_ = 0;
};

}  // namespace floe::up

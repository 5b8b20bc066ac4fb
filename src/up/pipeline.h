// Pipeline: everything `floe up` runs, started in dependency order and stopped in reverse.
//
// In one process by default; each role owns its threads. Roles whose issue has not landed yet
// are listed as such and not started — nothing pretends to work. Owned by `floe up`; Start,
// Stop and the status calls run on its thread.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "base/result.h"
#include "up/role.h"

namespace floe::up {

struct UpOptions {
  std::string data = "./floe-data";
  double traffic = 200;  // Generator events per second; negative = off.
  std::string trigger = "10s";
  std::string host = "127.0.0.1";
  int broker_port = 9092;
  int broker_metrics_port = 9644;
  int partitions = 4;
  double malformed_rate = 0.005;
};

// A role not built yet, and the issue that brings it.
struct MissingRole {
  std::string name;
  std::string describe;
  int issue;
};

class Pipeline {
 public:
  explicit Pipeline(UpOptions options);
  ~Pipeline();

  // Starts every built role in order; on failure stops those already started.
  Status Start();
  void Stop();

  // The start-up table: each role, where it runs, or which issue it waits for.
  std::string StatusTable() const;
  size_t running_roles() const { return started_.size(); }

 private:
  UpOptions options_;
  std::vector<std::unique_ptr<Role>> started_;
  std::vector<MissingRole> missing_;
};

}  // namespace floe::up

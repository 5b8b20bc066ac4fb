// Pipeline: everything `floe up` runs, started in dependency order and stopped in reverse.
//
// In one process by default, each role owning its threads; with `processes`, each role is a
// child process that a supervisor thread restarts when it dies, unless it was taken down on
// purpose. Roles whose issue has not landed yet are listed as such and not started — nothing
// pretends to work. Owned by `floe up`; every public call is thread-safe (the console's
// playground takes roles down from the query server's threads).
#pragma once

#include <atomic>
#include <memory>
#include <mutex>
#include <set>
#include <string>
#include <thread>
#include <vector>

#include "base/result.h"
#include "stream/stream_runner.h"
#include "up/role.h"

namespace floe::up {

struct UpOptions {
  std::string data = "./floe-data";
  double traffic = 200;  // Generator events per second; negative = off.
  int64_t trigger_millis = 10'000;
  std::string host = "127.0.0.1";
  int broker_port = 9092;
  int broker_metrics_port = 9644;
  int catalog_port = 8181;
  int partitions = 4;
  double malformed_rate = 0.005;
  bool processes = false;           // One supervised child process per role.
  std::string floe_binary = "/proc/self/exe";  // What child processes run.
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
  size_t running_roles() const;

  // --processes only: SIGKILL a role and keep it down until BringUp; BringUp starts it again.
  Status TakeDown(std::string_view role);
  Status BringUp(std::string_view role);

 private:
  std::vector<std::unique_ptr<Role>> MakeInProcessRoles();
  std::vector<std::unique_ptr<Role>> MakeProcessRoles();
  std::string Warehouse() const;
  stream::StreamConfig StreamConfigFor() const;
  void Supervise();
  Role* Find(std::string_view role);

  UpOptions options_;
  mutable std::mutex mutex_;
  std::vector<std::unique_ptr<Role>> started_;  // Guarded by mutex_.
  std::set<std::string, std::less<>> held_down_;  // Guarded by mutex_.
  std::vector<MissingRole> missing_;
  std::atomic<bool> stopping_{false};
  std::thread supervisor_;
};

}  // namespace floe::up

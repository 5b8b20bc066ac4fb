#include "support/child_process.h"

#include <arpa/inet.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <mutex>
#include <random>
#include <set>
#include <sstream>
#include <stdexcept>

namespace floe::testing {

ChildProcess::ChildProcess(std::vector<std::string> argv, std::string log_path, std::vector<std::string> extra_env)
    : log_path_(std::move(log_path)) {
  auto started = Subprocess::Start(std::move(argv), log_path_, std::move(extra_env));
  if (!started) throw std::runtime_error(started.error().ToString());
  process_ = std::move(*started);
}

std::string ChildProcess::ReadLog() const {
  std::ifstream in(log_path_);
  std::stringstream text;
  text << in.rdbuf();
  return text.str();
}

namespace {

// Whether 127.0.0.1:`port` can be bound now (`port` 0: any); the port bound, or 0.
int BindAndRelease(int port) {
  int fd = socket(AF_INET, SOCK_STREAM, 0);
  if (fd < 0) return 0;
  sockaddr_in addr{};
  addr.sin_family = AF_INET;
  addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  addr.sin_port = htons(static_cast<uint16_t>(port));
  int bound = 0;
  if (bind(fd, reinterpret_cast<sockaddr*>(&addr), sizeof(addr)) == 0) {
    socklen_t len = sizeof(addr);
    if (getsockname(fd, reinterpret_cast<sockaddr*>(&addr), &len) == 0) bound = ntohs(addr.sin_port);
  }
  close(fd);
  return bound;
}

// The lowest port the kernel hands out on its own (outgoing connections, bind to port 0).
int EphemeralRangeStart() {
  std::ifstream in("/proc/sys/net/ipv4/ip_local_port_range");
  int low = 0;
  if (!(in >> low)) return 0;
  return low;
}

}  // namespace

int FreeLoopbackPort() {
  // A port from the kernel's ephemeral range can be handed, between this check and the server's
  // bind, to any outgoing connection on the machine: under `ctest -j` the clients of other tests
  // make hundreds, and a pipeline's server then failed with "Address already in use". Below that
  // range only another test's pick can collide. Ports are not handed out twice per process.
  static std::mutex mutex;
  static std::set<int> handed_out;
  static std::mt19937 random(std::random_device{}());
  std::lock_guard lock(mutex);
  const int range_start = EphemeralRangeStart();
  constexpr int kLowest = 10000;
  if (range_start > kLowest + 1000) {
    std::uniform_int_distribution<int> pick(kLowest, range_start - 1);
    for (int attempt = 0; attempt < 100; ++attempt) {
      int port = pick(random);
      if (handed_out.contains(port) || BindAndRelease(port) != port) continue;
      handed_out.insert(port);
      return port;
    }
  }
  for (int attempt = 0; attempt < 100; ++attempt) {
    int port = BindAndRelease(0);
    if (port == 0) throw std::runtime_error("bind to a free port failed");
    if (handed_out.insert(port).second) return port;
  }
  throw std::runtime_error("no free loopback port");
}

TempFolder::TempFolder() {
  const char* base = std::getenv("TMPDIR");
  std::string pattern = std::string(base != nullptr ? base : "/tmp") + "/floe-test-XXXXXX";
  if (mkdtemp(pattern.data()) == nullptr) throw std::runtime_error("mkdtemp failed");
  path_ = pattern;
}

TempFolder::~TempFolder() {
  std::error_code ignored;
  std::filesystem::remove_all(path_, ignored);
}

}  // namespace floe::testing

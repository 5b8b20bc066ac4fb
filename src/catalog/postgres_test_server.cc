#include "catalog/postgres_test_server.h"

#include <netinet/in.h>
#include <pwd.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <vector>

#include <fmt/format.h>


namespace floe::catalog {
namespace {

// A loopback port nobody listens on right now (the OS's choice for port 0).
int FreePort() {
  int fd = ::socket(AF_INET, SOCK_STREAM, 0);
  sockaddr_in address{};
  address.sin_family = AF_INET;
  address.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  address.sin_port = 0;
  socklen_t length = sizeof(address);
  int port = 0;
  if (::bind(fd, reinterpret_cast<sockaddr*>(&address), sizeof(address)) == 0 &&
      ::getsockname(fd, reinterpret_cast<sockaddr*>(&address), &length) == 0) {
    port = ntohs(address.sin_port);
  }
  ::close(fd);
  return port;
}

std::string FindBinaries() {
  for (const char* folder : {"/usr/lib/postgresql/15/bin", "/usr/local/bin", "/usr/lib/postgresql/16/bin",
                             "/usr/lib/postgresql/17/bin", "/usr/bin"}) {
    if (::access(fmt::format("{}/initdb", folder).c_str(), X_OK) == 0 &&
        ::access(fmt::format("{}/pg_ctl", folder).c_str(), X_OK) == 0) {
      return folder;
    }
  }
  return "";
}

// Runs a command through the shell with its output appended to `log`, so that no pipe is
// inherited by the server pg_ctl leaves running. Returns the exit status.
int RunLogged(const std::vector<std::string>& argv, const std::string& log) {
  std::string command;
  for (const std::string& arg : argv) {
    command += "'";
    for (char c : arg) {
      command += c == '\'' ? std::string("'\\''") : std::string(1, c);
    }
    command += "' ";
  }
  command += ">> '" + log + "' 2>&1 < /dev/null";
  int status = std::system(command.c_str());
  return WIFEXITED(status) ? WEXITSTATUS(status) : 128;
}

}  // namespace

PostgresTestServer* PostgresTestServer::StartOnce(Slot& slot, std::string* why_not) {
  std::call_once(slot.once, [&slot] {
    auto started = Start();
    if (started) {
      slot.server = std::move(*started);
    } else {
      slot.failure = started.error().ToString();
    }
  });
  *why_not = slot.failure;
  return slot.server.get();
}

Result<std::unique_ptr<PostgresTestServer>> PostgresTestServer::Start() {
  std::unique_ptr<PostgresTestServer> server(new PostgresTestServer());
  server->bin_ = FindBinaries();
  if (server->bin_.empty()) {
    return Unavailable("no PostgreSQL initdb/pg_ctl found");
  }
  std::string pattern = (std::filesystem::temp_directory_path() / "floe-pg-XXXXXX").string();
  if (::mkdtemp(pattern.data()) == nullptr) {
    return ErrnoError(errno, "mkdtemp", pattern);
  }
  server->folder_ = pattern;
  std::vector<std::string> prefix;
  if (::geteuid() == 0) {
    passwd* user = ::getpwnam("postgres");
    if (user == nullptr) {
      return Unavailable("running as root and there is no 'postgres' user to run PostgreSQL as");
    }
    if (::chown(server->folder_.c_str(), user->pw_uid, user->pw_gid) != 0) {
      return ErrnoError(errno, "chown", server->folder_);
    }
    server->run_as_ = "postgres";
    prefix = {"/usr/sbin/runuser", "-u", "postgres", "--"};
  }
  auto run = [&](std::vector<std::string> argv) {
    std::vector<std::string> full = prefix;
    full.insert(full.end(), argv.begin(), argv.end());
    return RunLogged(full, server->folder_ + "/commands.log");
  };
  std::string data = server->folder_ + "/data";
  auto init = run({server->bin_ + "/initdb", "-D", data, "-A", "trust", "-U", "postgres", "--no-sync", "-E", "UTF8"});
  if (init != 0) {
    return Unavailable("initdb failed ({}); see {}/commands.log", init, server->folder_);
  }
  for (int attempt = 0; attempt < 3; ++attempt) {
    server->port_ = FreePort();
    std::string options = fmt::format("-p {} -h 127.0.0.1 -k {} -c fsync=off", server->port_, server->folder_);
    auto started = run({server->bin_ + "/pg_ctl", "-D", data, "-o", options, "-l", server->folder_ + "/log", "-w",
                        "-t", "60", "start"});
    if (started == 0) {
      server->uri_ = fmt::format("postgresql://postgres@127.0.0.1:{}/postgres", server->port_);
      return server;
    }
  }
  return Unavailable("pg_ctl start failed; see {}/log", server->folder_);
}

PostgresTestServer::~PostgresTestServer() {
  if (!uri_.empty()) {
    std::vector<std::string> argv;
    if (!run_as_.empty()) {
      argv = {"/usr/sbin/runuser", "-u", run_as_, "--"};
    }
    argv.insert(argv.end(), {bin_ + "/pg_ctl", "-D", folder_ + "/data", "-m", "immediate", "-w", "stop"});
    RunLogged(argv, "/dev/null");
  }
  if (!folder_.empty()) {
    std::error_code ignored;
    std::filesystem::remove_all(folder_, ignored);
  }
}

}  // namespace floe::catalog

// `floe user add NAME --role ROLE --auth-file FILE`: adds a user to the auth file, or replaces
// one, storing a SCRAM-SHA-256 verifier of the password read from standard input (never from
// argv, where other users of the machine could see it). The file is created, or rewritten,
// with mode 0600; a file others may read is refused, as the listeners refuse it.
#include <termios.h>
#include <unistd.h>

#include <filesystem>
#include <iostream>
#include <string>

#include "auth/users.h"
#include "cli/command.h"

namespace floe::cli {
namespace {

struct UserFlags {
  std::string name;
  std::string role = "writer";
  std::string auth_file;
};

// One line of standard input, without its line break. On a terminal the line is not echoed.
Result<std::string> ReadPassword() {
  bool terminal = ::isatty(STDIN_FILENO) == 1;
  termios saved{};
  if (terminal && ::tcgetattr(STDIN_FILENO, &saved) == 0) {
    termios quiet = saved;
    quiet.c_lflag &= ~static_cast<tcflag_t>(ECHO);
    ::tcsetattr(STDIN_FILENO, TCSAFLUSH, &quiet);
    fmt::print(stderr, "password: ");
  }
  std::string password;
  bool got = static_cast<bool>(std::getline(std::cin, password));
  if (terminal) {
    ::tcsetattr(STDIN_FILENO, TCSAFLUSH, &saved);
    fmt::print(stderr, "\n");
  }
  if (!got) return InvalidArgument("no password on standard input");
  if (password.ends_with('\r')) password.pop_back();
  if (password.empty()) return InvalidArgument("the password is empty");
  return password;
}

Status AddUser(const UserFlags& flags) {
  if (flags.name.empty() || flags.name.find_first_of("\r\n\t") != std::string::npos) {
    return InvalidArgument("the user name must be non-empty and hold no control characters");
  }
  if (flags.role != "reader" && flags.role != "writer" && flags.role != "admin") {
    return InvalidArgument("--role must be reader, writer or admin");
  }
  std::vector<auth::AuthUser> users;
  std::error_code ec;
  if (std::filesystem::exists(flags.auth_file, ec)) {
    FLOE_ASSIGN_OR_RETURN(users, auth::LoadAuthFile(flags.auth_file));
  }
  FLOE_ASSIGN_OR_RETURN(std::string password, ReadPassword());
  FLOE_ASSIGN_OR_RETURN(auth::AuthUser user, auth::MakeAuthUser(flags.name, password, flags.role));
  bool replaced = false;
  for (auth::AuthUser& existing : users) {
    if (existing.name != flags.name) continue;
    user.method = existing.method == "md5" ? "scram-sha-256" : existing.method;  // MD5 needs the plaintext.
    user.grants = std::move(existing.grants);  // A new password or role keeps the user's [[grant]]s.
    existing = std::move(user);
    replaced = true;
    break;
  }
  if (!replaced) users.push_back(std::move(user));
  FLOE_RETURN_IF_ERROR(auth::SaveAuthFile(flags.auth_file, users));
  fmt::print("{} user {} ({}) in {}\n", replaced ? "replaced" : "added", flags.name, flags.role, flags.auth_file);
  return OkStatus();
}

}  // namespace

void RegisterUserCommand(CLI::App& root, CommandRegistry& registry) {
  CLI::App* user = root.add_subcommand("user", "Manage the users of an auth file (--auth-file of every listener)");
  user->require_subcommand(1);
  auto flags = std::make_shared<UserFlags>();
  CLI::App* add = registry.Add(*user, "add",
                               "Add or replace a user; the password is read from standard input and stored as a "
                               "SCRAM-SHA-256 verifier",
                               "user", [flags] {
                                 if (auto added = AddUser(*flags); !added) {
                                   fmt::print(stderr, "floe user add: {}\n", added.error().ToString());
                                   return ExitCodeFor(added.error());
                                 }
                                 return kExitOk;
                               });
  add->add_option("name", flags->name, "User name (the Kafka SASL user, PostgreSQL and Trino user, OAuth2 client id)")
      ->required();
  add->add_option("--role", flags->role, "reader (reads), writer (also writes data) or admin (also changes structure)")
      ->capture_default_str();
  add->add_option("--auth-file", flags->auth_file, "The TOML file of users; created with mode 0600 if missing")
      ->required();
}

}  // namespace floe::cli

#include "auth/users.h"

#include <fstream>
#include <sstream>

#include <toml++/toml.h>

#include "base/logging.h"
#include "base/private_file.h"

namespace floe::auth {

Result<AuthUser> MakeAuthUser(std::string name, std::string_view password, std::string role) {
  FLOE_ASSIGN_OR_RETURN(ScramVerifier verifier, MakeScramVerifier(password));
  return AuthUser{.name = std::move(name), .verifier = std::move(verifier), .role = std::move(role)};
}

Result<std::vector<AuthUser>> ParseAuthToml(std::string_view text, std::string_view source) {
  toml::table table;
  // toml++ reports syntax errors by exception; convert them here, at the library boundary.
  try {
    table = toml::parse(text, std::string(source));
  } catch (const toml::parse_error& e) {
    return InvalidArgument("{}: {}", source, e.description());
  }
  std::vector<AuthUser> users;
  const toml::array* list = table["user"].as_array();
  if (list == nullptr) return InvalidArgument("{}: expected [[user]] entries", source);
  for (const auto& node : *list) {
    const toml::table* entry = node.as_table();
    if (entry == nullptr) return InvalidArgument("{}: [[user]] must be a table", source);
    AuthUser user;
    auto name = (*entry)["name"].value<std::string>();
    auto password = (*entry)["password"].value<std::string>();
    auto verifier = (*entry)["verifier"].value<std::string>();
    if (!name || name->empty() || (!password && !verifier)) {
      return InvalidArgument("{}: every [[user]] needs a name and a verifier (floe user add writes both)", source);
    }
    if (password && verifier) return InvalidArgument("{}: user {} has both a password and a verifier", source, *name);
    if (FindUser(users, *name) != nullptr) return InvalidArgument("{}: user {} appears twice", source, *name);
    user.name = *name;
    if (verifier) {
      FLOE_ASSIGN_OR_RETURN_CTX(user.verifier, ParseScramVerifier(*verifier), fmt::format("{}: user {}", source, user.name));
    } else {
      Logger("auth")->warn("{}: user {} has a plaintext password; store a verifier instead: "
                           "floe user add {} --role ROLE --auth-file {} (password on standard input)",
                           source, user.name, user.name, source);
      user.password = *password;
      FLOE_ASSIGN_OR_RETURN(user.verifier, MakeScramVerifier(*password));
    }
    if (auto method = (*entry)["method"].value<std::string>()) user.method = *method;
    if (user.method != "scram-sha-256" && user.method != "md5" && user.method != "password") {
      return InvalidArgument("{}: user {}: method must be scram-sha-256, md5 or password", source, user.name);
    }
    if (user.method == "md5" && !password) {
      return InvalidArgument("{}: user {}: md5 needs the plaintext password; use scram-sha-256", source, user.name);
    }
    if (auto role = (*entry)["role"].value<std::string>()) user.role = *role;
    if (user.role != "reader" && user.role != "writer" && user.role != "admin") {
      return InvalidArgument("{}: user {}: role must be reader, writer or admin", source, user.name);
    }
    users.push_back(std::move(user));
  }
  return users;
}

Result<std::vector<AuthUser>> LoadAuthFile(const std::string& path) {
  FLOE_RETURN_IF_ERROR(CheckPrivateFile(path, "auth file"));
  std::ifstream in(path);
  if (!in) return IoError("cannot read auth file {}", path);
  std::stringstream text;
  text << in.rdbuf();
  return ParseAuthToml(text.str(), path);
}

std::string FormatAuthToml(const std::vector<AuthUser>& users) {
  toml::array entries;
  for (const AuthUser& user : users) {
    toml::table entry;
    entry.insert("name", user.name);
    if (user.password.empty()) {
      entry.insert("verifier", FormatScramVerifier(user.verifier));
    } else {
      entry.insert("password", user.password);
    }
    entry.insert("role", user.role);
    if (user.method != "scram-sha-256") entry.insert("method", user.method);
    entries.push_back(std::move(entry));
  }
  toml::table root;
  root.insert("user", std::move(entries));
  std::ostringstream out;
  out << "# floe users (floe user add NAME --role ROLE --auth-file FILE). Keep this file mode 0600.\n"
      << toml::toml_formatter(root) << "\n";
  return out.str();
}

Status SaveAuthFile(const std::string& path, const std::vector<AuthUser>& users) {
  return WritePrivateFile(path, FormatAuthToml(users));
}

const AuthUser* FindUser(const std::vector<AuthUser>& users, std::string_view name) {
  for (const AuthUser& u : users) {
    if (u.name == name) return &u;
  }
  return nullptr;
}

bool CheckPassword(const std::vector<AuthUser>& users, std::string_view name, std::string_view password) {
  static const Result<ScramVerifier> decoy = DecoyScramVerifier();
  const AuthUser* user = FindUser(users, name);
  if (user == nullptr) {
    if (decoy.has_value()) VerifyPassword(*decoy, password);
    return false;
  }
  return VerifyPassword(user->verifier, password);
}

}  // namespace floe::auth

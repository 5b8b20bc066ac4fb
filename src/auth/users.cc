#include "auth/users.h"

#include <openssl/crypto.h>

#include <fstream>
#include <sstream>

#include <toml++/toml.h>

namespace floe::auth {

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
    if (!name || name->empty() || !password) return InvalidArgument("{}: every [[user]] needs name and password", source);
    user.name = *name;
    user.password = *password;
    if (auto method = (*entry)["method"].value<std::string>()) user.method = *method;
    if (user.method != "scram-sha-256" && user.method != "md5" && user.method != "password") {
      return InvalidArgument("{}: user {}: method must be scram-sha-256, md5 or password", source, user.name);
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
  std::ifstream in(path);
  if (!in) return IoError("cannot read auth file {}", path);
  std::stringstream text;
  text << in.rdbuf();
  return ParseAuthToml(text.str(), path);
}

const AuthUser* FindUser(const std::vector<AuthUser>& users, std::string_view name) {
  for (const AuthUser& u : users) {
    if (u.name == name) return &u;
  }
  return nullptr;
}

bool CheckPassword(const std::vector<AuthUser>& users, std::string_view name, std::string_view password) {
  const AuthUser* user = FindUser(users, name);
  if (user == nullptr || user->password.size() != password.size()) return false;
  return CRYPTO_memcmp(user->password.data(), password.data(), password.size()) == 0;
}

}  // namespace floe::auth

#include "auth/role.h"

namespace floe::auth {

Result<Role> ParseRole(std::string_view text) {
  if (text == "reader") return Role::kReader;
  if (text == "writer") return Role::kWriter;
  if (text == "admin") return Role::kAdmin;
  return InvalidArgument("role must be reader, writer or admin, not '{}'", text);
}

std::string_view RoleName(Role role) {
  switch (role) {
    case Role::kReader: return "reader";
    case Role::kWriter: return "writer";
    case Role::kAdmin: return "admin";
  }
  return "reader";
}

Role RoleOf(const std::vector<AuthUser>& users, std::string_view name) {
  if (users.empty()) return Role::kAdmin;
  const AuthUser* user = FindUser(users, name);
  if (user == nullptr) return Role::kReader;
  auto role = ParseRole(user->role);
  return role ? *role : Role::kReader;
}

}  // namespace floe::auth

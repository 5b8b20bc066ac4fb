// A user's role (issue #27, finding 6): `role = "reader" | "writer" | "admin"` on each [[user]]
// of the auth file, default writer. What each role permits by itself, and how grants widen or
// narrow it per topic, namespace and group, is decided in authorize.h. Stateless.
#pragma once

#include <string_view>
#include <vector>

#include "auth/users.h"
#include "base/result.h"

namespace floe::auth {

enum class Role { kReader, kWriter, kAdmin };

Result<Role> ParseRole(std::string_view text);
std::string_view RoleName(Role role);

// The role of the user called `name`. With no users configured nothing authenticates, so
// nothing is restricted: admin. An unknown name (which authentication should already have
// refused) is a reader.
Role RoleOf(const std::vector<AuthUser>& users, std::string_view name);

}  // namespace floe::auth

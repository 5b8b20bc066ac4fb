// What a user of the auth file may do (issue #27, finding 6): `role = "reader" | "writer" |
// "admin"` on each [[user]]. A reader reads (SQL SELECT, Kafka Fetch and group membership,
// catalog GETs); a writer also writes data (INSERT/UPDATE/DELETE/MERGE, Produce, snapshot commits);
// only an admin changes structure (DDL, CreateTopics/DeleteTopics, catalog creates and drops,
// the playground). Every listener asks Permits(RoleOf(users, name), access). Stateless.
#pragma once

#include <string_view>
#include <vector>

#include "auth/users.h"
#include "base/result.h"

namespace floe::auth {

enum class Role { kReader, kWriter, kAdmin };

// What a request needs, in increasing order: each role permits its own and those below it.
enum class Access { kRead, kWrite, kAlter };

Result<Role> ParseRole(std::string_view text);
std::string_view RoleName(Role role);
std::string_view AccessName(Access access);

// The role of the user called `name`. With no users configured nothing authenticates, so
// nothing is restricted: admin. An unknown name (which authentication should already have
// refused) is a reader.
Role RoleOf(const std::vector<AuthUser>& users, std::string_view name);

constexpr bool Permits(Role role, Access access) { return static_cast<int>(role) >= static_cast<int>(access); }

}  // namespace floe::auth

// Whether a user may do an operation on a resource (issue #27): the one decision every
// listener asks, from the auth file's roles and grants. Stateless; any thread.
//
// The decision, for a user, a resource (topic, namespace or group) and an operation:
//   1. No users configured: allowed (nothing authenticates, so nothing is restricted).
//   2. A grant of the user that covers the resource and denies the operation: refused, whatever
//      else allows it (deny wins, as in Kafka's ACLs).
//   3. A grant of the user that covers the resource and allows the operation: allowed.
//   4. Otherwise the role decides (RoleAllows): a reader reads topics and namespaces, a writer
//      also writes them, an admin does everything; only an admin creates, deletes or alters.
//      A consumer group is its owner's: a non-admin uses the groups it owns by name
//      (OwnsGroupByName) and no other.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "auth/grant.h"
#include "auth/role.h"
#include "auth/users.h"

namespace floe::auth {

// Who is asking: an authenticated user's name, role and grants, copied out of the auth file
// so a session can carry it. The default (no users configured) may do everything.
struct Principal {
  std::string name;
  Role role = Role::kAdmin;
  std::vector<Grant> grants;  // The user's own.
};

// The principal of the user called `name`: the default one when `users` is empty; an unknown
// name (which authentication has refused already) is a reader without grants.
Principal PrincipalOf(const std::vector<AuthUser>& users, std::string_view name);

bool Authorize(const Principal& principal, const Resource& resource, Operation operation);
// The same, looking the user up in `users` without copying its grants (the broker asks this
// per request).
bool Authorize(const std::vector<AuthUser>& users, std::string_view user, const Resource& resource,
               Operation operation);

// Step 4 alone: what the role permits without any grant.
bool RoleAllows(Role role, std::string_view user, const Resource& resource, Operation operation);

// Whether `group` is `user`'s by name: the user's own name, or the name followed by '-', '.'
// or '_' and anything ("ana", "ana-dash", "ana.etl"). Ids starting "floe-" belong to floe's own
// clients (the stream job's floe-stream-<table>) and are nobody's by name.
bool OwnsGroupByName(std::string_view user, std::string_view group);

// Whether the principal may do `operation` on at least one resource of `kind` (its role, or a
// grant that allows it): a statement that cannot pass this is refused before it is planned.
bool AllowedSomewhere(const Principal& principal, ResourceKind kind, Operation operation);
// Whether it may do `operation` on every resource of `kind`, named or not yet made: its role
// (or a grant on "*") allows it and no grant denies it anywhere. Reading a table by location
// (iceberg_scan) needs this, as the location names no namespace.
bool AllowedEverywhere(const Principal& principal, ResourceKind kind, Operation operation);

}  // namespace floe::auth

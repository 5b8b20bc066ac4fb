#include "auth/authorize.h"

#include <span>

namespace floe::auth {
namespace {

// Steps 2-4 of the decision (authorize.h) for one user's role and grants.
bool Decide(std::string_view user, Role role, std::span<const Grant> grants, const Resource& resource,
            Operation operation) {
  bool granted = false;
  for (const Grant& grant : grants) {
    if (!grant.resource.Matches(resource)) continue;
    if (grant.deny.Has(operation)) return false;
    if (grant.allow.Has(operation)) granted = true;
  }
  return granted || RoleAllows(role, user, resource, operation);
}

}  // namespace

Principal PrincipalOf(const std::vector<AuthUser>& users, std::string_view name) {
  Principal principal;
  principal.name = std::string(name);
  principal.role = RoleOf(users, name);
  if (const AuthUser* user = FindUser(users, name)) principal.grants = user->grants;
  return principal;
}

bool Authorize(const Principal& principal, const Resource& resource, Operation operation) {
  return Decide(principal.name, principal.role, principal.grants, resource, operation);
}

bool Authorize(const std::vector<AuthUser>& users, std::string_view user, const Resource& resource,
               Operation operation) {
  if (users.empty()) return true;
  const AuthUser* found = FindUser(users, user);
  if (found == nullptr) return RoleAllows(Role::kReader, user, resource, operation);
  return Decide(user, RoleOf(users, user), found->grants, resource, operation);
}

bool RoleAllows(Role role, std::string_view user, const Resource& resource, Operation operation) {
  if (role == Role::kAdmin) return true;
  if (resource.kind == ResourceKind::kGroup) return OwnsGroupByName(user, resource.name);
  if (operation == Operation::kRead) return true;
  if (operation == Operation::kWrite) return role == Role::kWriter;
  return false;
}

bool OwnsGroupByName(std::string_view user, std::string_view group) {
  if (user.empty() || group.starts_with("floe-") || !group.starts_with(user)) return false;
  if (group.size() == user.size()) return true;
  char separator = group[user.size()];
  return separator == '-' || separator == '.' || separator == '_';
}

bool AllowedSomewhere(const Principal& principal, ResourceKind kind, Operation operation) {
  // Every user owns the groups named after it, so the role's answer on such a group is the
  // answer for "some group".
  std::string owned = principal.name;
  Resource probe{kind, kind == ResourceKind::kGroup ? std::string_view(owned) : std::string_view()};
  if (RoleAllows(principal.role, principal.name, probe, operation)) return true;
  for (const Grant& grant : principal.grants) {
    if (grant.resource.kind == kind && grant.allow.Has(operation)) return true;
  }
  return false;
}

bool AllowedEverywhere(const Principal& principal, ResourceKind kind, Operation operation) {
  bool everywhere = principal.role == Role::kAdmin ||
                    (kind != ResourceKind::kGroup && RoleAllows(principal.role, principal.name, {kind, ""}, operation));
  for (const Grant& grant : principal.grants) {
    if (grant.resource.kind != kind) continue;
    if (grant.deny.Has(operation)) return false;
    if (grant.allow.Has(operation) && grant.resource.prefix && grant.resource.name.empty()) everywhere = true;
  }
  return everywhere;
}

}  // namespace floe::auth

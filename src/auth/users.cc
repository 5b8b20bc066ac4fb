#include "auth/users.h"

#include <algorithm>
#include <array>
#include <fstream>
#include <sstream>

#include <toml++/toml.h>

#include "base/logging.h"
#include "base/private_file.h"

namespace floe::auth {
namespace {

constexpr std::array<std::string_view, 5> kUserKeys = {"name", "password", "verifier", "role", "method"};
constexpr std::array<std::string_view, 6> kGrantKeys = {"user", "topic", "namespace", "group", "allow", "deny"};
constexpr std::array<ResourceKind, 3> kResourceKinds = {ResourceKind::kTopic, ResourceKind::kNamespace,
                                                        ResourceKind::kGroup};

int LineOf(const toml::node& node) { return static_cast<int>(node.source().begin.line); }

// The operations of a grant's `allow` or `deny` array: each known, applicable to the kind and
// named once.
Result<OperationSet> ParseOperations(const toml::table& entry, std::string_view key, ResourceKind kind) {
  OperationSet operations;
  const toml::node* node = entry.get(key);
  if (node == nullptr) return operations;
  const toml::array* list = node->as_array();
  if (list == nullptr) return InvalidArgument("{} must be an array of operations, as {} = [\"read\"]", key, key);
  for (const toml::node& item : *list) {
    auto text = item.value<std::string>();
    if (!text) return InvalidArgument("{} must be an array of operations (strings)", key);
    FLOE_ASSIGN_OR_RETURN_CTX(Operation operation, ParseOperation(*text), std::string(key));
    if (!OperationAppliesTo(kind, operation)) {
      return InvalidArgument("{}: a {} takes read or delete, not {}", key, ResourceKindName(kind), *text);
    }
    if (operations.Has(operation)) return InvalidArgument("{} names {} twice", key, *text);
    operations.Add(operation);
  }
  return operations;
}

// One [[grant]] table; `users` are the file's users, which it must name.
Result<Grant> ParseGrant(const toml::table& entry, const std::vector<AuthUser>& users) {
  Grant grant;
  grant.line = LineOf(entry);
  for (const auto& [key, value] : entry) {
    if (std::find(kGrantKeys.begin(), kGrantKeys.end(), key.str()) == kGrantKeys.end()) {
      return InvalidArgument("unknown key '{}' (a [[grant]] takes user, topic, namespace, group, allow and deny)",
                             key.str());
    }
  }
  auto user = entry["user"].value<std::string>();
  if (!user || user->empty()) return InvalidArgument("a [[grant]] needs user = \"NAME\"");
  if (FindUser(users, *user) == nullptr) {
    return InvalidArgument("[[grant]] for user '{}', who has no [[user]] entry", *user);
  }
  grant.user = *user;
  int kinds = 0;
  for (ResourceKind kind : kResourceKinds) {
    const toml::node* node = entry.get(ResourceKindName(kind));
    if (node == nullptr) continue;
    ++kinds;
    auto text = node->value<std::string>();
    if (!text) return InvalidArgument("{} must be a string", ResourceKindName(kind));
    FLOE_ASSIGN_OR_RETURN(grant.resource, ParseResourcePattern(kind, *text));
  }
  if (kinds != 1) return InvalidArgument("a [[grant]] names exactly one of topic, namespace or group");
  FLOE_ASSIGN_OR_RETURN(grant.allow, ParseOperations(entry, "allow", grant.resource.kind));
  FLOE_ASSIGN_OR_RETURN(grant.deny, ParseOperations(entry, "deny", grant.resource.kind));
  if (grant.allow.empty() && grant.deny.empty()) return InvalidArgument("a [[grant]] needs allow or deny operations");
  OperationSet both;
  for (Operation operation : kAllOperations) {
    if (grant.allow.Has(operation) && grant.deny.Has(operation)) both.Add(operation);
  }
  if (!both.empty()) return InvalidArgument("a [[grant]] both allows and denies {}", both.ToString());
  return grant;
}

}  // namespace

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
    return InvalidArgument("{}:{}: {}", source, e.source().begin.line, e.description());
  }
  std::vector<AuthUser> users;
  const toml::array* list = table["user"].as_array();
  if (list == nullptr) return InvalidArgument("{}: expected [[user]] entries", source);
  for (const auto& node : *list) {
    const int line = LineOf(node);
    const toml::table* entry = node.as_table();
    if (entry == nullptr) return InvalidArgument("{}:{}: [[user]] must be a table", source, line);
    for (const auto& [key, value] : *entry) {
      if (std::find(kUserKeys.begin(), kUserKeys.end(), key.str()) == kUserKeys.end()) {
        return InvalidArgument("{}:{}: unknown key '{}' (a [[user]] takes name, verifier, password, role and method)",
                               source, LineOf(value), key.str());
      }
    }
    AuthUser user;
    auto name = (*entry)["name"].value<std::string>();
    auto password = (*entry)["password"].value<std::string>();
    auto verifier = (*entry)["verifier"].value<std::string>();
    if (!name || name->empty() || (!password && !verifier)) {
      return InvalidArgument("{}:{}: every [[user]] needs a name and a verifier (floe user add writes both)", source, line);
    }
    if (password && verifier) return InvalidArgument("{}:{}: user {} has both a password and a verifier", source, line, *name);
    if (FindUser(users, *name) != nullptr) return InvalidArgument("{}:{}: user {} appears twice", source, line, *name);
    user.name = *name;
    if (verifier) {
      FLOE_ASSIGN_OR_RETURN_CTX(user.verifier, ParseScramVerifier(*verifier), fmt::format("{}:{}: user {}", source, line, user.name));
    } else {
      Logger("auth")->warn("{}: user {} has a plaintext password; store a verifier instead: "
                           "floe user add {} --role ROLE --auth-file {} (password on standard input)",
                           source, user.name, user.name, source);
      user.password = *password;
      FLOE_ASSIGN_OR_RETURN(user.verifier, MakeScramVerifier(*password));
    }
    if (auto method = (*entry)["method"].value<std::string>()) user.method = *method;
    if (user.method != "scram-sha-256" && user.method != "md5" && user.method != "password") {
      return InvalidArgument("{}:{}: user {}: method must be scram-sha-256, md5 or password", source, line, user.name);
    }
    if (user.method == "md5" && !password) {
      return InvalidArgument("{}:{}: user {}: md5 needs the plaintext password; use scram-sha-256", source, line, user.name);
    }
    if (auto role = (*entry)["role"].value<std::string>()) user.role = *role;
    if (user.role != "reader" && user.role != "writer" && user.role != "admin") {
      return InvalidArgument("{}:{}: user {}: role must be reader, writer or admin", source, line, user.name);
    }
    users.push_back(std::move(user));
  }
  if (const toml::node* grants = table.get("grant")) {
    const toml::array* list = grants->as_array();
    if (list == nullptr) return InvalidArgument("{}:{}: grants are [[grant]] tables", source, LineOf(*grants));
    for (const toml::node& node : *list) {
      const toml::table* entry = node.as_table();
      if (entry == nullptr) return InvalidArgument("{}:{}: [[grant]] must be a table", source, LineOf(node));
      FLOE_ASSIGN_OR_RETURN_CTX(Grant grant, ParseGrant(*entry, users), fmt::format("{}:{}", source, LineOf(node)));
      AuthUser& owner = *std::find_if(users.begin(), users.end(), [&](const AuthUser& u) { return u.name == grant.user; });
      for (const Grant& earlier : owner.grants) {
        if (earlier.resource == grant.resource) {
          return InvalidArgument("{}:{}: a second [[grant]] for user '{}' on {} '{}' (the first is on line {}); "
                                 "merge them into one",
                                 source, grant.line, grant.user, ResourceKindName(grant.resource.kind),
                                 grant.resource.Text(), earlier.line);
        }
      }
      owner.grants.push_back(std::move(grant));
    }
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
  toml::array grants;
  for (const AuthUser& user : users) {
    for (const Grant& grant : user.grants) {
      toml::table entry;
      entry.insert("user", user.name);
      entry.insert(ResourceKindName(grant.resource.kind), grant.resource.Text());
      for (auto [key, operations] : {std::pair{"allow", grant.allow}, std::pair{"deny", grant.deny}}) {
        if (operations.empty()) continue;
        toml::array names;
        for (Operation operation : kAllOperations) {
          if (operations.Has(operation)) names.push_back(std::string(OperationName(operation)));
        }
        entry.insert(key, std::move(names));
      }
      grants.push_back(std::move(entry));
    }
  }
  toml::table root;
  root.insert("user", std::move(entries));
  if (!grants.empty()) root.insert("grant", std::move(grants));
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

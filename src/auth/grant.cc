#include "auth/grant.h"

namespace floe::auth {

Result<Operation> ParseOperation(std::string_view text) {
  for (Operation operation : kAllOperations) {
    if (OperationName(operation) == text) return operation;
  }
  return InvalidArgument("unknown operation '{}' (read, write, create, delete or alter)", text);
}

std::string_view OperationName(Operation operation) {
  switch (operation) {
    case Operation::kRead: return "read";
    case Operation::kWrite: return "write";
    case Operation::kCreate: return "create";
    case Operation::kDelete: return "delete";
    case Operation::kAlter: return "alter";
  }
  return "alter";
}

std::string OperationSet::ToString() const {
  std::string out;
  for (Operation operation : kAllOperations) {
    if (!Has(operation)) continue;
    if (!out.empty()) out += ", ";
    out += OperationName(operation);
  }
  return out;
}

std::string_view ResourceKindName(ResourceKind kind) {
  switch (kind) {
    case ResourceKind::kTopic: return "topic";
    case ResourceKind::kNamespace: return "namespace";
    case ResourceKind::kGroup: return "group";
  }
  return "topic";
}

bool ResourcePattern::Matches(const Resource& resource) const {
  if (resource.kind != kind) return false;
  return prefix ? resource.name.starts_with(name) : resource.name == name;
}

std::string ResourcePattern::Text() const { return prefix ? name + "*" : name; }

Result<ResourcePattern> ParseResourcePattern(ResourceKind kind, std::string_view text) {
  if (text.empty()) return InvalidArgument("an empty {} name", ResourceKindName(kind));
  for (char c : text) {
    if (static_cast<unsigned char>(c) < 0x20 || c == 0x7f) {
      return InvalidArgument("{} name '{}' has a control character", ResourceKindName(kind), text);
    }
  }
  size_t star = text.find('*');
  if (star != std::string_view::npos && star + 1 != text.size()) {
    return InvalidArgument("{} '{}': '*' may only end a name (a prefix)", ResourceKindName(kind), text);
  }
  ResourcePattern pattern;
  pattern.kind = kind;
  pattern.prefix = star != std::string_view::npos;
  pattern.name = std::string(pattern.prefix ? text.substr(0, star) : text);
  return pattern;
}

bool OperationAppliesTo(ResourceKind kind, Operation operation) {
  if (kind != ResourceKind::kGroup) return true;
  return operation == Operation::kRead || operation == Operation::kDelete;
}

}  // namespace floe::auth

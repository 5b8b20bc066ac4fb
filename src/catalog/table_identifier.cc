#include "catalog/table_identifier.h"

#include <fmt/ranges.h>

namespace floe::catalog {
namespace {

Result<Namespace> SplitLevels(std::string_view text, char separator) {
  Namespace ns;
  if (text.empty()) {
    return ns;
  }
  size_t start = 0;
  while (true) {
    size_t end = text.find(separator, start);
    std::string_view level = text.substr(start, end == std::string_view::npos ? std::string_view::npos : end - start);
    if (level.empty()) {
      return InvalidArgument("namespace '{}' has an empty level", text);
    }
    ns.emplace_back(level);
    if (end == std::string_view::npos) {
      break;
    }
    start = end + 1;
  }
  FLOE_RETURN_IF_ERROR(ValidateNamespace(ns));
  return ns;
}

Status ValidateName(std::string_view what, std::string_view name) {
  if (name.empty()) {
    return InvalidArgument("{} name is empty", what);
  }
  if (name.size() > 255) {
    return InvalidArgument("{} name '{}...' is longer than 255 bytes", what, name.substr(0, 32));
  }
  for (unsigned char c : name) {
    if (c < 0x20 || c == 0x7f) {
      return InvalidArgument("{} name contains a control character", what);
    }
  }
  // Names become folders of the default location (<warehouse>/<ns levels>/<table>): a '/' or
  // '..' would nest one table inside another's folder or climb out of the warehouse.
  if (name.find('/') != std::string_view::npos || name.find('\\') != std::string_view::npos) {
    return InvalidArgument("{} name '{}' contains a path separator", what, name);
  }
  if (name == "." || name.find("..") != std::string_view::npos) {
    return InvalidArgument("{} name '{}' contains '..' or is '.'", what, name);
  }
  return OkStatus();
}

}  // namespace

std::string NamespaceToString(const Namespace& ns) { return fmt::format("{}", fmt::join(ns, ".")); }

Result<Namespace> NamespaceFromString(std::string_view text) { return SplitLevels(text, '.'); }

std::string IdentifierToString(const TableIdentifier& id) {
  return id.ns.empty() ? id.name : fmt::format("{}.{}", NamespaceToString(id.ns), id.name);
}

Result<TableIdentifier> IdentifierFromString(std::string_view text) {
  size_t dot = text.rfind('.');
  if (dot == std::string_view::npos || dot == 0) {
    return InvalidArgument("table identifier '{}' needs a namespace: NAMESPACE.TABLE", text);
  }
  TableIdentifier id;
  FLOE_ASSIGN_OR_RETURN(id.ns, NamespaceFromString(text.substr(0, dot)));
  id.name = std::string(text.substr(dot + 1));
  FLOE_RETURN_IF_ERROR(ValidateTableName(id.name));
  return id;
}

Result<Namespace> NamespaceFromRestSegment(std::string_view decoded) { return SplitLevels(decoded, '\x1f'); }

std::string NamespaceToRestSegment(const Namespace& ns) { return fmt::format("{}", fmt::join(ns, "\x1f")); }

Status ValidateNamespace(const Namespace& ns) {
  for (const std::string& level : ns) {
    FLOE_RETURN_IF_ERROR(ValidateName("namespace level", level));
  }
  return OkStatus();
}

Status ValidateTableName(std::string_view name) { return ValidateName("table", name); }

}  // namespace floe::catalog

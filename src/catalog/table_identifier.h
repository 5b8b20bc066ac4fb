// Namespaces and table identifiers as the Iceberg catalogs name them, with the two spellings
// floe must read and write: the SQL catalog's dotted string ("a.b", as Iceberg's JDBC catalog
// and PyIceberg's SqlCatalog store it) and the REST path's unit-separator form ("a%1Fb").
// Plain values; any thread.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "base/result.h"

namespace floe::catalog {

// Levels from the outermost: {"analytics", "events"}. Empty means the catalog's root.
using Namespace = std::vector<std::string>;

struct TableIdentifier {
  Namespace ns;
  std::string name;

  bool operator==(const TableIdentifier&) const = default;
  bool operator<(const TableIdentifier& other) const {
    return ns != other.ns ? ns < other.ns : name < other.name;
  }
};

// "a.b": the SQL catalogs' column value (and how floe prints a namespace).
std::string NamespaceToString(const Namespace& ns);
// The inverse of NamespaceToString; refuses empty levels.
Result<Namespace> NamespaceFromString(std::string_view text);

// "a.b.t"
std::string IdentifierToString(const TableIdentifier& id);
// "a.b.t" → namespace {a, b}, name t; needs at least one namespace level.
Result<TableIdentifier> IdentifierFromString(std::string_view text);

// A REST path segment decoded from "a%1Fb": levels split on the unit separator (0x1F).
Result<Namespace> NamespaceFromRestSegment(std::string_view decoded);
// The REST path segment, unit-separated, not yet percent-encoded.
std::string NamespaceToRestSegment(const Namespace& ns);

// Whether every level is non-empty and free of control characters; names likewise.
Status ValidateNamespace(const Namespace& ns);
Status ValidateTableName(std::string_view name);

}  // namespace floe::catalog

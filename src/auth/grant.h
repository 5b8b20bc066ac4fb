// A `[[grant]]` of the auth file (issue #27): it widens or narrows what one user's role permits
// on the topics, namespaces or consumer groups that one name or one prefix selects.
//
//   [[grant]]
//   user = "ana"               # a [[user]] of the same file
//   topic = "orders"           # or namespace = "shop", or group = "dash-*"; a trailing * is a prefix
//   allow = ["read", "write"]  # operations added to the role's
//   deny = ["delete"]          # operations taken away, whatever the role or another grant allows
//
// Operations are named as Kafka's ACLs and Trino's file-based access control name them: read,
// write, create, delete, alter (a group takes read and delete only). Plain values; any thread.
#pragma once

#include <array>
#include <cstdint>
#include <string>
#include <string_view>

#include "base/result.h"

namespace floe::auth {

// What a request does to a resource.
enum class Operation : uint8_t {
  kRead,    // SELECT, Fetch, ListOffsets, Metadata, catalog GETs, group membership and offsets
  kWrite,   // INSERT/UPDATE/DELETE/MERGE/TRUNCATE, Produce, snapshot commits
  kCreate,  // CREATE TABLE/SCHEMA, CreateTopics, catalog creates and registers
  kDelete,  // DROP TABLE/SCHEMA, DeleteTopics, catalog drops and purges, DeleteGroups
  kAlter,   // ALTER, CALL and other changes of structure, topic partitions and configs
};

// Every operation, in the order above (the order messages and the file list them in).
inline constexpr std::array<Operation, 5> kAllOperations = {Operation::kRead, Operation::kWrite, Operation::kCreate,
                                                            Operation::kDelete, Operation::kAlter};

Result<Operation> ParseOperation(std::string_view text);
std::string_view OperationName(Operation operation);

// A set of operations (a bit each).
class OperationSet {
 public:
  void Add(Operation operation) { bits_ |= Bit(operation); }
  bool Has(Operation operation) const { return (bits_ & Bit(operation)) != 0; }
  bool empty() const { return bits_ == 0; }
  bool operator==(const OperationSet&) const = default;
  // "read, write": for messages and the file's arrays.
  std::string ToString() const;

 private:
  static uint8_t Bit(Operation operation) { return static_cast<uint8_t>(1u << static_cast<unsigned>(operation)); }
  uint8_t bits_ = 0;
};

enum class ResourceKind : uint8_t { kTopic, kNamespace, kGroup };

// "topic", "namespace", "group": the grant's key, and how messages name the kind.
std::string_view ResourceKindName(ResourceKind kind);

// One thing a request touches: a Kafka topic, a catalog namespace (a SQL schema; levels
// joined by '.'), or a Kafka consumer group.
struct Resource {
  ResourceKind kind;
  std::string_view name;
};

// Which resources of one kind a grant covers: one name, or (written with a trailing '*') every
// name that starts with the rest; "*" alone covers them all.
struct ResourcePattern {
  ResourceKind kind = ResourceKind::kTopic;
  std::string name;  // The name, or the prefix without its '*'.
  bool prefix = false;

  bool Matches(const Resource& resource) const;
  // As written in the file: "orders", "dash-*".
  std::string Text() const;
  bool operator==(const ResourcePattern&) const = default;
};

// `text` as a pattern of `kind`: non-empty, no control characters, '*' only at the end.
Result<ResourcePattern> ParseResourcePattern(ResourceKind kind, std::string_view text);

// The operations a grant may name for `kind`: a group has no data of its own to write and is
// made by joining it, so only read and delete.
bool OperationAppliesTo(ResourceKind kind, Operation operation);

struct Grant {
  std::string user;
  ResourcePattern resource;
  OperationSet allow;
  OperationSet deny;
  int line = 0;  // Where the auth file has it (1-based; 0 for a grant made in code).
};

}  // namespace floe::auth

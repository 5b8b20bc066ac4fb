// SubjectStore: the registry's state (schemas by global id, each subject's versions, the
// compatibility levels and modes) as the records of the `_schemas` topic define it. Each
// record's key names one thing (a subject's version, a subject's config, ...) and its value is
// that thing's whole new state (null: gone), in Confluent's record format, so applying the
// topic in order, compacted or not, rebuilds the same state; that is how the registry restarts.
// Not synchronized: SchemaRegistry owns one under its mutex.
#pragma once

#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json.hpp>

#include "registry/compatibility.h"

namespace floe::registry {

struct SchemaReference {
  std::string name;  // How the referring schema names it (an Avro full name, a .proto import).
  std::string subject;
  int version = 0;

  bool operator==(const SchemaReference&) const = default;
};

// A schema's content: what one global id stands for.
struct SchemaContent {
  std::string schema_type = "AVRO";  // AVRO, JSON or PROTOBUF.
  std::string schema;                // Canonical text (see schema_text.h).
  std::vector<SchemaReference> references;

  bool operator==(const SchemaContent&) const = default;
};

struct SubjectVersion {
  int version = 0;
  int id = 0;
  bool deleted = false;  // Soft-deleted: hidden unless asked for with ?deleted=true.
};

// The _schemas topic's keys and values (Confluent's keytypes SCHEMA, CONFIG, MODE,
// DELETE_SUBJECT; NOOP and unknown ones are skipped).
std::string SchemaRecordKey(std::string_view subject, int version);
std::string SchemaRecordValue(std::string_view subject, const SubjectVersion& version, const SchemaContent& content);
// An empty subject is the global setting.
std::string ConfigRecordKey(std::string_view subject);
std::string ConfigRecordValue(CompatibilityLevel level);
std::string ModeRecordKey(std::string_view subject);
std::string ModeRecordValue(std::string_view mode);

class SubjectStore {
 public:
  // Applies one record; a record that does not parse is skipped (returns false) so that one bad
  // record, written by another tool, does not keep the registry from starting.
  bool Apply(std::string_view key, const std::optional<std::string>& value);

  // Subjects with at least one version (soft-deleted ones only with `deleted`), sorted.
  std::vector<std::string> Subjects(bool deleted) const;
  // The subject's versions, oldest first; null when it has none at all.
  const std::map<int, SubjectVersion>* Versions(std::string_view subject) const;
  const SchemaContent* Schema(int id) const;
  // The id whose content equals `content`, or 0.
  int IdOf(const SchemaContent& content) const;
  // The subject/version pairs whose schema is `id`.
  std::vector<std::pair<std::string, int>> SubjectVersionsOf(int id) const;
  // Ids of live schemas that reference subject/version.
  std::vector<int> ReferencedBy(std::string_view subject, int version) const;

  int max_id() const { return max_id_; }
  std::optional<CompatibilityLevel> Compatibility(std::string_view subject) const;  // "" = global.
  std::optional<std::string> Mode(std::string_view subject) const;                  // "" = global.

 private:
  std::map<int, SchemaContent> schemas_;
  std::map<std::string, std::map<int, SubjectVersion>, std::less<>> subjects_;
  std::map<std::string, CompatibilityLevel, std::less<>> compatibility_;
  std::map<std::string, std::string, std::less<>> modes_;
  int max_id_ = 0;
};

}  // namespace floe::registry

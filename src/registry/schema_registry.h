// SchemaRegistry: the operations of Confluent's Schema Registry API over a SubjectStore kept
// in a RecordLog. Each change is validated against the current state, written to the log,
// and only once the log acknowledged it applied to the state, so what a client was told is
// what a restart replays. Results are the JSON bodies the API answers. One mutex serializes
// every operation (writes wait for the broker; the registry is not a hot path); any thread.
#pragma once

#include <mutex>
#include <nlohmann/json.hpp>
#include <string>
#include <string_view>
#include <vector>

#include "base/result.h"
#include "formats/avro/avro_schema.h"
#include "formats/json_schema/json_schema.h"
#include "formats/protobuf/proto_schema.h"
#include "registry/registry_error.h"
#include "registry/schema_topic_log.h"
#include "registry/subject_store.h"

namespace floe::registry {

class SchemaRegistry {
 public:
  explicit SchemaRegistry(RecordLog& log) : log_(log) {}

  // Startup: the log's records, in order (SchemaTopicLog::Replay).
  void ApplyReplayed(const std::string& key, const std::optional<std::string>& value);

  nlohmann::json Subjects(bool deleted) const;
  RegistryResult<nlohmann::json> Versions(std::string_view subject, bool deleted) const;
  // {subject, id, version, schema[, schemaType, references]}; `version` may be kLatestVersion.
  RegistryResult<nlohmann::json> Version(std::string_view subject, int version, bool deleted) const;
  RegistryResult<nlohmann::json> SchemaById(int id) const;  // {schema[, schemaType, references]}
  // A PROTOBUF schema parsed as registration parses it (with its references' files as its
  // imports), for answering it as a descriptor.
  Result<protobuf::ProtoSchema> ParseProtobuf(const SchemaContent& content) const;
  RegistryResult<nlohmann::json> SubjectVersionsById(int id) const;  // [{subject, version}]
  RegistryResult<nlohmann::json> ReferencedBy(std::string_view subject, int version) const;

  // {"id": N}: the id the same content already has under `subject`, or a new version.
  RegistryResult<nlohmann::json> Register(std::string_view subject, const SchemaContent& content);
  // The version of `subject` holding `content`.
  RegistryResult<nlohmann::json> Lookup(std::string_view subject, const SchemaContent& content, bool deleted) const;
  // {"is_compatible": bool[, "messages": [...]]} against `version` (kLatestVersion: the
  // subject's level decides which versions).
  RegistryResult<nlohmann::json> TestCompatibility(std::string_view subject, int version, const SchemaContent& content,
                                                   bool verbose) const;

  // The deleted versions ([1, 2, ...]).
  RegistryResult<nlohmann::json> DeleteSubject(std::string_view subject, bool permanent);
  // The deleted version number.
  RegistryResult<nlohmann::json> DeleteVersion(std::string_view subject, int version, bool permanent);

  // "" is the global level. `fallback`: a subject without its own level answers the global one.
  RegistryResult<nlohmann::json> Config(std::string_view subject, bool fallback) const;
  RegistryResult<nlohmann::json> SetConfig(std::string_view subject, CompatibilityLevel level);
  RegistryResult<nlohmann::json> Mode(std::string_view subject, bool fallback) const;
  RegistryResult<nlohmann::json> SetMode(std::string_view subject, const std::string& mode);

 private:
  // A record written, then applied: the one way state changes after startup.
  RegistryResult<void> Write(const std::string& key, const std::optional<std::string>& value);
  RegistryResult<const std::map<int, SubjectVersion>*> LiveSubject(std::string_view subject, bool deleted) const;
  RegistryResult<SubjectVersion> ResolveVersion(std::string_view subject, int version, bool deleted) const;
  CompatibilityLevel LevelOf(std::string_view subject) const;
  // An AVRO schema with references, parsed with the named types of the schemas they name (theirs
  // first, each once, at most kMaxReferenceSchemas and kMaxReferenceDepth deep).
  Result<avro::AvroSchema> ParseAvroWithReferences(const SchemaContent& content) const;
  // A PROTOBUF schema with references, parsed with each referenced schema as the file it
  // imports by the reference's name (bounded as above).
  Result<protobuf::ProtoSchema> ParseProtobufWithReferences(const SchemaContent& content) const;
  // A JSON schema with the documents of its references (theirs too, bounded as above): keywords
  // of the right shapes, every `$ref` resolving.
  Result<json_schema::JsonSchema> ParseJsonSchema(const SchemaContent& content) const;
  // The schemas `content`'s references name, and theirs, dependencies first, each (subject,
  // version) once, as (reference name, schema); each must be of `content`'s type.
  Result<std::vector<protobuf::ProtoImport>> ReferencedSchemas(const SchemaContent& content) const;
  static constexpr size_t kMaxReferenceSchemas = 256;
  static constexpr int kMaxReferenceDepth = 32;
  // Problems of `candidate` under `subject`'s level (or against `only_version` alone).
  RegistryResult<std::vector<std::string>> CompatibilityProblems(std::string_view subject, const SchemaContent& candidate,
                                                                 std::optional<int> only_version) const;

  RecordLog& log_;
  mutable std::mutex mutex_;
  SubjectStore store_;
};

}  // namespace floe::registry

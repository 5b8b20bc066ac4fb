#include "registry/schema_registry.h"

#include <algorithm>
#include <functional>
#include <set>
#include <utility>
#include <vector>

#include "base/logging.h"
#include "registry/json_schema_compatibility.h"
#include "registry/protobuf_compatibility.h"
#include "registry/registry_request.h"

namespace floe::registry {
namespace {

using Json = nlohmann::json;

constexpr std::string_view kDefaultMode = "READWRITE";

void AddContent(Json& body, const SchemaContent& content) {
  body["schema"] = content.schema;
  if (content.schema_type != "AVRO") body["schemaType"] = content.schema_type;
  if (!content.references.empty()) {
    Json references = Json::array();
    for (const SchemaReference& reference : content.references) {
      references.push_back({{"name", reference.name}, {"subject", reference.subject}, {"version", reference.version}});
    }
    body["references"] = std::move(references);
  }
}

}  // namespace

void SchemaRegistry::ApplyReplayed(const std::string& key, const std::optional<std::string>& value) {
  std::lock_guard lock(mutex_);
  if (!store_.Apply(key, value)) Logger("registry")->warn("skipped a _schemas record that does not parse: {}", key);
}

RegistryResult<void> SchemaRegistry::Write(const std::string& key, const std::optional<std::string>& value) {
  if (auto written = log_.Append(key, value); !written) return std::unexpected(FromFloeError(written.error()));
  store_.Apply(key, value);
  return {};
}

Json SchemaRegistry::Subjects(bool deleted) const {
  std::lock_guard lock(mutex_);
  return store_.Subjects(deleted);
}

RegistryResult<const std::map<int, SubjectVersion>*> SchemaRegistry::LiveSubject(std::string_view subject,
                                                                                 bool deleted) const {
  const auto* versions = store_.Versions(subject);
  bool any = versions != nullptr && std::any_of(versions->begin(), versions->end(), [&](const auto& entry) {
               return deleted || !entry.second.deleted;
             });
  if (!any) return Fail(RegistryErrorCode::kSubjectNotFound, "Subject '{}' not found.", subject);
  return versions;
}

RegistryResult<SubjectVersion> SchemaRegistry::ResolveVersion(std::string_view subject, int version,
                                                              bool deleted) const {
  auto versions = LiveSubject(subject, deleted);
  if (!versions) return std::unexpected(versions.error());
  if (version == kLatestVersion) {
    for (auto it = (*versions)->rbegin(); it != (*versions)->rend(); ++it) {
      if (deleted || !it->second.deleted) return it->second;
    }
  } else if (auto found = (*versions)->find(version);
             found != (*versions)->end() && (deleted || !found->second.deleted)) {
    return found->second;
  }
  return Fail(RegistryErrorCode::kVersionNotFound, "Version {} not found.", version);
}

RegistryResult<Json> SchemaRegistry::Versions(std::string_view subject, bool deleted) const {
  std::lock_guard lock(mutex_);
  auto versions = LiveSubject(subject, deleted);
  if (!versions) return std::unexpected(versions.error());
  Json numbers = Json::array();
  for (const auto& [number, version] : **versions) {
    if (deleted || !version.deleted) numbers.push_back(number);
  }
  return numbers;
}

RegistryResult<Json> SchemaRegistry::Version(std::string_view subject, int version, bool deleted) const {
  std::lock_guard lock(mutex_);
  auto found = ResolveVersion(subject, version, deleted);
  if (!found) return std::unexpected(found.error());
  Json body = {{"subject", std::string(subject)}, {"version", found->version}, {"id", found->id}};
  if (const SchemaContent* content = store_.Schema(found->id)) AddContent(body, *content);
  return body;
}

RegistryResult<Json> SchemaRegistry::SchemaById(int id) const {
  std::lock_guard lock(mutex_);
  const SchemaContent* content = store_.Schema(id);
  // Soft-deleted versions still answer by id: deserializers must read what was written with them.
  if (content == nullptr || store_.SubjectVersionsOf(id).empty()) {
    return Fail(RegistryErrorCode::kSchemaNotFound, "Schema {} not found", id);
  }
  Json body = Json::object();
  AddContent(body, *content);
  return body;
}

RegistryResult<Json> SchemaRegistry::SubjectVersionsById(int id) const {
  std::lock_guard lock(mutex_);
  auto found = store_.SubjectVersionsOf(id);
  if (found.empty()) return Fail(RegistryErrorCode::kSchemaNotFound, "Schema {} not found", id);
  Json body = Json::array();
  for (const auto& [subject, version] : found) body.push_back({{"subject", subject}, {"version", version}});
  return body;
}

RegistryResult<Json> SchemaRegistry::ReferencedBy(std::string_view subject, int version) const {
  std::lock_guard lock(mutex_);
  auto found = ResolveVersion(subject, version, false);
  if (!found) return std::unexpected(found.error());
  return Json(store_.ReferencedBy(subject, found->version));
}

CompatibilityLevel SchemaRegistry::LevelOf(std::string_view subject) const {
  if (auto level = store_.Compatibility(subject)) return *level;
  if (auto level = store_.Compatibility("")) return *level;
  return CompatibilityLevel::kBackward;
}

Result<std::vector<protobuf::ProtoImport>> SchemaRegistry::ReferencedSchemas(const SchemaContent& content) const {
  std::set<std::pair<std::string, int>> seen;
  std::vector<protobuf::ProtoImport> out;
  std::function<Status(const std::vector<SchemaReference>&, int)> add = [&](const std::vector<SchemaReference>& refs,
                                                                            int depth) -> Status {
    if (depth > kMaxReferenceDepth) return InvalidArgument("references nested deeper than {}", kMaxReferenceDepth);
    for (const SchemaReference& reference : refs) {
      auto version = ResolveVersion(reference.subject, reference.version, /*deleted=*/true);
      const SchemaContent* referenced = version ? store_.Schema(version->id) : nullptr;
      if (referenced == nullptr) {
        return InvalidArgument("reference '{}' to {} version {} not found", reference.name, reference.subject,
                               reference.version);
      }
      // A schema reached along two paths is given once.
      if (!seen.emplace(reference.subject, version->version).second) continue;
      if (seen.size() > kMaxReferenceSchemas) {
        return InvalidArgument("more than {} referenced schemas", kMaxReferenceSchemas);
      }
      if (referenced->schema_type != content.schema_type) {
        return InvalidArgument("reference '{}' to {} version {} is {}, not {}", reference.name, reference.subject,
                               reference.version, referenced->schema_type, content.schema_type);
      }
      FLOE_RETURN_IF_ERROR(add(referenced->references, depth + 1));
      out.push_back({reference.name, referenced->schema});
    }
    return OkStatus();
  };
  FLOE_RETURN_IF_ERROR(add(content.references, 0));
  return out;
}

Result<protobuf::ProtoSchema> SchemaRegistry::ParseProtobuf(const SchemaContent& content) const {
  std::lock_guard lock(mutex_);
  if (content.references.empty()) return protobuf::ProtoSchema::Parse(content.schema);
  return ParseProtobufWithReferences(content);
}

Result<avro::AvroSchema> SchemaRegistry::ParseAvroWithReferences(const SchemaContent& content) const {
  FLOE_ASSIGN_OR_RETURN(std::vector<protobuf::ProtoImport> referenced, ReferencedSchemas(content));
  std::vector<std::string> texts;
  for (protobuf::ProtoImport& r : referenced) texts.push_back(std::move(r.schema));
  return avro::AvroSchema::ParseWithReferences(content.schema, texts);
}

Result<protobuf::ProtoSchema> SchemaRegistry::ParseProtobufWithReferences(const SchemaContent& content) const {
  FLOE_ASSIGN_OR_RETURN(std::vector<protobuf::ProtoImport> imports, ReferencedSchemas(content));
  return protobuf::ProtoSchema::ParseWithImports(content.schema, imports);
}

Result<json_schema::JsonSchema> SchemaRegistry::ParseJsonSchema(const SchemaContent& content) const {
  FLOE_ASSIGN_OR_RETURN(std::vector<protobuf::ProtoImport> referenced, ReferencedSchemas(content));
  std::vector<json_schema::JsonSchemaDocument> documents;
  for (const protobuf::ProtoImport& r : referenced) documents.push_back({r.name, r.schema});
  return json_schema::JsonSchema::Parse(content.schema, documents);
}

RegistryResult<std::vector<std::string>> SchemaRegistry::CompatibilityProblems(std::string_view subject,
                                                                               const SchemaContent& candidate,
                                                                               std::optional<int> only_version) const {
  auto checked = CheckSchema(candidate);
  if (!checked) return std::unexpected(checked.error());
  // Avro with references parses with the types its references define, or is invalid.
  if (checked->content.schema_type == "AVRO" && !checked->content.references.empty()) {
    auto parsed = ParseAvroWithReferences(checked->content);
    if (!parsed) return Fail(RegistryErrorCode::kInvalidSchema, "Invalid schema: {}", parsed.error().message());
    checked->avro = std::move(*parsed);
  }
  // So does Protobuf with references, each the file it imports by the reference's name; one
  // that uses what floe does not read (editions, groups, other well-known imports) is kept
  // unchecked, as without references.
  if (checked->content.schema_type == "PROTOBUF" && !checked->content.references.empty()) {
    auto parsed = ParseProtobufWithReferences(checked->content);
    if (parsed) {
      checked->protobuf = std::move(*parsed);
    } else if (parsed.error().kind() != ErrorKind::kNotImplemented) {
      return Fail(RegistryErrorCode::kInvalidSchema, "Invalid schema: {}", parsed.error().message());
    }
  }
  // A JSON Schema parses with its keywords' shapes right and each `$ref` resolving in it or in
  // its references' documents, under every level.
  std::optional<json_schema::JsonSchema> json;
  if (checked->content.schema_type == "JSON") {
    auto parsed = ParseJsonSchema(checked->content);
    if (!parsed) return Fail(RegistryErrorCode::kInvalidSchema, "Invalid schema: {}", parsed.error().message());
    json = std::move(*parsed);
  }
  CompatibilityLevel level = LevelOf(subject);
  // Avro, Protobuf and JSON Schema (with or without references) are checked; Protobuf floe
  // cannot parse is accepted as under NONE (docs/schema-registry.md).
  if (level == CompatibilityLevel::kNone || (!checked->avro && !checked->protobuf && !json)) {
    return std::vector<std::string>{};
  }
  const std::string& type = checked->content.schema_type;
  std::vector<avro::AvroSchema> parsed;
  std::vector<protobuf::ProtoSchema> parsed_protobuf;
  std::vector<json_schema::JsonSchema> parsed_json;
  const auto* versions = store_.Versions(subject);
  if (versions != nullptr) {
    for (const auto& [number, version] : *versions) {
      if (version.deleted || (only_version && number != *only_version)) continue;
      const SchemaContent* content = store_.Schema(version.id);
      if (content == nullptr || content->schema_type != type) continue;
      if (type == "JSON") {
        // A version that no longer parses (stored before floe checked JSON Schemas) is skipped.
        if (auto schema = ParseJsonSchema(*content)) parsed_json.push_back(std::move(*schema));
      } else if (type == "AVRO") {
        auto schema =
            content->references.empty() ? avro::AvroSchema::Parse(content->schema) : ParseAvroWithReferences(*content);
        if (schema) parsed.push_back(std::move(*schema));
      } else if (auto schema = content->references.empty() ? protobuf::ProtoSchema::Parse(content->schema)
                                                           : ParseProtobufWithReferences(*content)) {
        parsed_protobuf.push_back(std::move(*schema));
      }
    }
  }
  if (json) {
    std::vector<const json_schema::JsonSchema*> existing;
    for (const auto& schema : parsed_json) existing.push_back(&schema);
    return JsonSchemaCompatibilityProblems(level, *json, existing);
  }
  if (checked->protobuf) {
    std::vector<const protobuf::ProtoSchema*> existing;
    for (const auto& schema : parsed_protobuf) existing.push_back(&schema);
    return ProtobufCompatibilityProblems(level, *checked->protobuf, existing);
  }
  std::vector<const avro::AvroNode*> existing;
  for (const auto& schema : parsed) existing.push_back(&schema.root());
  return AvroCompatibilityProblems(level, checked->avro->root(), existing);
}

RegistryResult<Json> SchemaRegistry::Register(std::string_view subject, const SchemaContent& request) {
  std::lock_guard lock(mutex_);
  std::string mode = store_.Mode(subject).value_or(store_.Mode("").value_or(std::string(kDefaultMode)));
  if (mode == "READONLY") {
    return Fail(RegistryErrorCode::kOperationNotPermitted, "Subject {} is in read-only mode", subject);
  }
  auto checked = CheckSchema(request);
  if (!checked) return std::unexpected(checked.error());
  const SchemaContent& content = checked->content;
  for (const SchemaReference& reference : content.references) {
    if (!ResolveVersion(reference.subject, reference.version, false)) {
      return Fail(RegistryErrorCode::kInvalidSchema, "Invalid schema: reference '{}' to {} version {} not found",
                  reference.name, reference.subject, reference.version);
    }
  }
  const auto* versions = store_.Versions(subject);
  int latest_version = 0;
  if (versions != nullptr) {
    for (const auto& [number, version] : *versions) {
      latest_version = std::max(latest_version, number);
      const SchemaContent* stored = store_.Schema(version.id);
      if (!version.deleted && stored != nullptr && *stored == content) return Json{{"id", version.id}};
    }
  }
  auto problems = CompatibilityProblems(subject, content, std::nullopt);
  if (!problems) return std::unexpected(problems.error());
  if (!problems->empty()) {
    return Fail(RegistryErrorCode::kIncompatibleSchema,
                "Schema being registered is incompatible with an earlier schema for subject \"{}\", details: {}",
                subject, Json(*problems).dump());
  }
  // Ids are global: the same content under another subject keeps its id.
  int id = store_.IdOf(content);
  if (id == 0) id = store_.max_id() + 1;
  SubjectVersion version{latest_version + 1, id, false};
  auto written = Write(SchemaRecordKey(subject, version.version), SchemaRecordValue(subject, version, content));
  if (!written) return std::unexpected(written.error());
  return Json{{"id", id}};
}

RegistryResult<Json> SchemaRegistry::Lookup(std::string_view subject, const SchemaContent& request,
                                            bool deleted) const {
  std::lock_guard lock(mutex_);
  auto versions = LiveSubject(subject, deleted);
  if (!versions) return std::unexpected(versions.error());
  auto checked = CheckSchema(request);
  if (!checked) return std::unexpected(checked.error());
  for (auto it = (*versions)->rbegin(); it != (*versions)->rend(); ++it) {
    const SchemaContent* stored = store_.Schema(it->second.id);
    if ((deleted || !it->second.deleted) && stored != nullptr && *stored == checked->content) {
      Json body = {{"subject", std::string(subject)}, {"version", it->first}, {"id", it->second.id}};
      AddContent(body, *stored);
      return body;
    }
  }
  return Fail(RegistryErrorCode::kSchemaNotFound, "Schema not found");
}

RegistryResult<Json> SchemaRegistry::TestCompatibility(std::string_view subject, int version,
                                                       const SchemaContent& content, bool verbose) const {
  std::lock_guard lock(mutex_);
  std::optional<int> only_version;
  if (version != kLatestVersion) {
    auto found = ResolveVersion(subject, version, false);
    if (!found) return std::unexpected(found.error());
    only_version = found->version;
  }
  auto problems = CompatibilityProblems(subject, content, only_version);
  if (!problems) return std::unexpected(problems.error());
  Json body = {{"is_compatible", problems->empty()}};
  if (verbose) body["messages"] = *problems;
  return body;
}

RegistryResult<Json> SchemaRegistry::DeleteSubject(std::string_view subject, bool permanent) {
  std::lock_guard lock(mutex_);
  const auto* versions = store_.Versions(subject);
  if (versions == nullptr) return Fail(RegistryErrorCode::kSubjectNotFound, "Subject '{}' not found.", subject);
  std::vector<SubjectVersion> targets;
  for (const auto& [number, version] : *versions) {
    if (!permanent && version.deleted) continue;
    if (permanent && !version.deleted) {
      return Fail(RegistryErrorCode::kSubjectNotSoftDeleted,
                  "Subject '{}' was not deleted first before being permanently deleted", subject);
    }
    if (!store_.ReferencedBy(subject, number).empty()) {
      return Fail(RegistryErrorCode::kReferenceExists, "One or more references exist to the schema {{subject={},version={}}}",
                  subject, number);
    }
    targets.push_back(version);
  }
  if (targets.empty()) {
    return Fail(RegistryErrorCode::kSubjectSoftDeleted, "Subject '{}' was soft deleted. Set permanent=true to delete permanently",
                subject);
  }
  Json deleted = Json::array();
  for (SubjectVersion version : targets) {
    std::optional<std::string> value;  // A tombstone for a permanent delete.
    if (!permanent) {
      version.deleted = true;
      value = SchemaRecordValue(subject, version, *store_.Schema(version.id));
    }
    auto written = Write(SchemaRecordKey(subject, version.version), value);
    if (!written) return std::unexpected(written.error());
    deleted.push_back(version.version);
  }
  return deleted;
}

RegistryResult<Json> SchemaRegistry::DeleteVersion(std::string_view subject, int version, bool permanent) {
  std::lock_guard lock(mutex_);
  auto found = ResolveVersion(subject, version, /*deleted=*/permanent);
  if (!found) {
    // A soft-deleted version deleted softly again has its own code.
    if (!permanent && found.error().code == RegistryErrorCode::kVersionNotFound && version != kLatestVersion) {
      if (ResolveVersion(subject, version, true)) {
        return Fail(RegistryErrorCode::kVersionSoftDeleted,
                    "Subject '{}' Version {} was soft deleted. Set permanent=true to delete permanently", subject,
                    version);
      }
    }
    return std::unexpected(found.error());
  }
  if (permanent && !found->deleted) {
    return Fail(RegistryErrorCode::kVersionNotSoftDeleted,
                "Subject '{}' Version {} was not deleted first before being permanently deleted", subject,
                found->version);
  }
  if (!store_.ReferencedBy(subject, found->version).empty()) {
    return Fail(RegistryErrorCode::kReferenceExists, "One or more references exist to the schema {{subject={},version={}}}",
                subject, found->version);
  }
  std::optional<std::string> value;
  if (!permanent) {
    SubjectVersion deleted = *found;
    deleted.deleted = true;
    value = SchemaRecordValue(subject, deleted, *store_.Schema(found->id));
  }
  auto written = Write(SchemaRecordKey(subject, found->version), value);
  if (!written) return std::unexpected(written.error());
  return Json(found->version);
}

RegistryResult<Json> SchemaRegistry::Config(std::string_view subject, bool fallback) const {
  std::lock_guard lock(mutex_);
  std::optional<CompatibilityLevel> level = store_.Compatibility(subject);
  if (!level && !subject.empty() && !fallback) {
    return Fail(RegistryErrorCode::kSubjectCompatibilityNotConfigured,
                "Subject '{}' does not have subject-level compatibility configured", subject);
  }
  return Json{{"compatibilityLevel", std::string(CompatibilityLevelName(LevelOf(subject)))}};
}

RegistryResult<Json> SchemaRegistry::SetConfig(std::string_view subject, CompatibilityLevel level) {
  std::lock_guard lock(mutex_);
  auto written = Write(ConfigRecordKey(subject), ConfigRecordValue(level));
  if (!written) return std::unexpected(written.error());
  return Json{{"compatibility", std::string(CompatibilityLevelName(level))}};
}

RegistryResult<Json> SchemaRegistry::Mode(std::string_view subject, bool fallback) const {
  std::lock_guard lock(mutex_);
  std::optional<std::string> mode = store_.Mode(subject);
  if (!mode && !subject.empty() && !fallback) {
    return Fail(RegistryErrorCode::kSubjectModeNotConfigured, "Subject '{}' does not have subject-level mode configured",
                subject);
  }
  if (!mode) mode = store_.Mode("");
  return Json{{"mode", mode.value_or(std::string(kDefaultMode))}};
}

RegistryResult<Json> SchemaRegistry::SetMode(std::string_view subject, const std::string& mode) {
  std::lock_guard lock(mutex_);
  auto written = Write(ModeRecordKey(subject), ModeRecordValue(mode));
  if (!written) return std::unexpected(written.error());
  return Json{{"mode", mode}};
}

}  // namespace floe::registry

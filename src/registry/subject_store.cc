#include "registry/subject_store.h"

#include <algorithm>

namespace floe::registry {
namespace {

using Json = nlohmann::json;

Json SubjectOrNull(std::string_view subject) { return subject.empty() ? Json(nullptr) : Json(std::string(subject)); }

}  // namespace

// Key field order as Confluent writes it, so that both registries' keys compact together.
std::string SchemaRecordKey(std::string_view subject, int version) {
  return Json{{"keytype", "SCHEMA"}, {"subject", std::string(subject)}, {"version", version}, {"magic", 1}}.dump();
}

std::string SchemaRecordValue(std::string_view subject, const SubjectVersion& version, const SchemaContent& content) {
  Json value = {{"subject", std::string(subject)},
                {"version", version.version},
                {"id", version.id},
                {"schema", content.schema},
                {"deleted", version.deleted}};
  if (content.schema_type != "AVRO") value["schemaType"] = content.schema_type;
  if (!content.references.empty()) {
    Json references = Json::array();
    for (const SchemaReference& reference : content.references) {
      references.push_back({{"name", reference.name}, {"subject", reference.subject}, {"version", reference.version}});
    }
    value["references"] = std::move(references);
  }
  return value.dump();
}

std::string ConfigRecordKey(std::string_view subject) {
  return Json{{"keytype", "CONFIG"}, {"subject", SubjectOrNull(subject)}, {"magic", 0}}.dump();
}

std::string ConfigRecordValue(CompatibilityLevel level) {
  return Json{{"compatibilityLevel", std::string(CompatibilityLevelName(level))}}.dump();
}

std::string ModeRecordKey(std::string_view subject) {
  return Json{{"keytype", "MODE"}, {"subject", SubjectOrNull(subject)}, {"magic", 0}}.dump();
}

std::string ModeRecordValue(std::string_view mode) { return Json{{"mode", std::string(mode)}}.dump(); }

bool SubjectStore::Apply(std::string_view key_text, const std::optional<std::string>& value_text) {
  Json key = Json::parse(key_text, nullptr, /*allow_exceptions=*/false);
  if (!key.is_object() || !key.contains("keytype") || !key["keytype"].is_string()) return false;
  std::string keytype = key["keytype"].get<std::string>();
  std::string subject;
  if (auto it = key.find("subject"); it != key.end() && it->is_string()) subject = it->get<std::string>();
  Json value;
  if (value_text) {
    value = Json::parse(*value_text, nullptr, /*allow_exceptions=*/false);
    if (!value.is_object()) return false;
  }
  if (keytype == "SCHEMA") {
    if (subject.empty() || !key.contains("version") || !key["version"].is_number_integer()) return false;
    int version = key["version"].get<int>();
    if (!value_text) {
      auto found = subjects_.find(subject);
      if (found != subjects_.end()) {
        found->second.erase(version);
        if (found->second.empty()) subjects_.erase(found);
      }
      return true;
    }
    if (!value.contains("id") || !value["id"].is_number_integer() || !value.contains("schema") ||
        !value["schema"].is_string()) {
      return false;
    }
    SchemaContent content;
    content.schema = value["schema"].get<std::string>();
    if (auto type = value.find("schemaType"); type != value.end() && type->is_string()) {
      content.schema_type = type->get<std::string>();
    }
    if (auto references = value.find("references"); references != value.end() && references->is_array()) {
      for (const Json& reference : *references) {
        if (!reference.is_object()) continue;
        content.references.push_back({reference.value("name", ""), reference.value("subject", ""),
                                      reference.value("version", 0)});
      }
    }
    int id = value["id"].get<int>();
    bool deleted = value.value("deleted", false);
    subjects_[subject][version] = SubjectVersion{version, id, deleted};
    schemas_[id] = std::move(content);
    max_id_ = std::max(max_id_, id);
    return true;
  }
  if (keytype == "CONFIG") {
    if (!value_text) {
      compatibility_.erase(subject);
      return true;
    }
    auto level = ParseCompatibilityLevel(value.value("compatibilityLevel", ""));
    if (!level) return false;
    compatibility_[subject] = *level;
    return true;
  }
  if (keytype == "MODE") {
    if (!value_text) {
      modes_.erase(subject);
      return true;
    }
    if (!value.contains("mode") || !value["mode"].is_string()) return false;
    modes_[subject] = value["mode"].get<std::string>();
    return true;
  }
  // DELETE_SUBJECT is informational (each version's record carries its deletion), NOOP marks
  // a position in the topic; neither changes the state.
  return keytype == "DELETE_SUBJECT" || keytype == "NOOP";
}

std::vector<std::string> SubjectStore::Subjects(bool deleted) const {
  std::vector<std::string> names;
  for (const auto& [name, versions] : subjects_) {
    bool listed = std::any_of(versions.begin(), versions.end(),
                              [&](const auto& entry) { return deleted || !entry.second.deleted; });
    if (listed) names.push_back(name);
  }
  return names;
}

const std::map<int, SubjectVersion>* SubjectStore::Versions(std::string_view subject) const {
  auto found = subjects_.find(subject);
  return found == subjects_.end() ? nullptr : &found->second;
}

const SchemaContent* SubjectStore::Schema(int id) const {
  auto found = schemas_.find(id);
  return found == schemas_.end() ? nullptr : &found->second;
}

int SubjectStore::IdOf(const SchemaContent& content) const {
  for (const auto& [id, stored] : schemas_) {
    if (stored == content) return id;
  }
  return 0;
}

std::vector<std::pair<std::string, int>> SubjectStore::SubjectVersionsOf(int id) const {
  std::vector<std::pair<std::string, int>> found;
  for (const auto& [name, versions] : subjects_) {
    for (const auto& [number, version] : versions) {
      if (version.id == id) found.emplace_back(name, number);
    }
  }
  return found;
}

std::vector<int> SubjectStore::ReferencedBy(std::string_view subject, int version) const {
  std::vector<int> ids;
  for (const auto& [name, versions] : subjects_) {
    for (const auto& [number, entry] : versions) {
      if (entry.deleted) continue;
      const SchemaContent* content = Schema(entry.id);
      if (content == nullptr) continue;
      for (const SchemaReference& reference : content->references) {
        if (reference.subject == subject && reference.version == version &&
            std::find(ids.begin(), ids.end(), entry.id) == ids.end()) {
          ids.push_back(entry.id);
        }
      }
    }
  }
  std::sort(ids.begin(), ids.end());
  return ids;
}

std::optional<CompatibilityLevel> SubjectStore::Compatibility(std::string_view subject) const {
  auto found = compatibility_.find(subject);
  if (found == compatibility_.end()) return std::nullopt;
  return found->second;
}

std::optional<std::string> SubjectStore::Mode(std::string_view subject) const {
  auto found = modes_.find(subject);
  if (found == modes_.end()) return std::nullopt;
  return found->second;
}

}  // namespace floe::registry

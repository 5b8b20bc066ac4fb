#include "formats/json_schema/json_schema.h"

#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <optional>
#include <utility>

#include "formats/json_schema/json_pointer.h"

namespace floe::json_schema {
namespace {

using Json = nlohmann::json;

constexpr std::array<std::string_view, 7> kTypeNames = {"array",  "boolean", "integer", "null",
                                                        "number", "object",  "string"};

bool IsSchema(const Json& value) { return value.is_object() || value.is_boolean(); }

bool IsCount(const Json& value) {
  return (value.is_number_unsigned()) || (value.is_number_float() && value.get<double>() >= 0 &&
                                          value.get<double>() == static_cast<long long>(value.get<double>()));
}

// A subschema met by the keyword walk: its parent's index and its token under it, so that the
// JSON pointer is built only for an error (building each pointer would cost depth squared).
struct Visited {
  const Json* node;
  size_t parent;  // kRoot for the document.
  std::string token;
};
constexpr size_t kRoot = static_cast<size_t>(-1);

std::string PointerOf(const std::vector<Visited>& visited, size_t index) {
  std::vector<const std::string*> tokens;
  for (size_t i = index; i != kRoot; i = visited[i].parent) {
    if (!visited[i].token.empty()) tokens.push_back(&visited[i].token);
  }
  std::string out;
  for (auto it = tokens.rbegin(); it != tokens.rend(); ++it) out += "/" + **it;
  return out;
}

// What is wrong with the keywords of schema `index` of `visited`, or empty; the subschemas it
// holds are appended to `visited` and their indexes pushed to `stack`.
std::string CheckKeywords(size_t index, std::vector<Visited>& visited, std::vector<size_t>& stack) {
  const Json& schema = *visited[index].node;
  auto push = [&](const Json* child, std::string token) {
    visited.push_back({child, index, std::move(token)});
    stack.push_back(visited.size() - 1);
  };
  for (const auto& [key, value] : schema.items()) {
    auto at = [&] { return PointerOf(visited, index) + "/" + EscapePointerToken(key); };  // Only for errors.
    if (key == "type") {
      std::vector<const Json*> names;
      if (value.is_string()) {
        names.push_back(&value);
      } else if (value.is_array() && !value.empty()) {
        for (const Json& name : value) names.push_back(&name);
      } else {
        return fmt::format("{}: \"type\" must be a type name or a non-empty array of them", at());
      }
      for (const Json* name : names) {
        if (!name->is_string() ||
            std::find(kTypeNames.begin(), kTypeNames.end(), name->get<std::string>()) == kTypeNames.end()) {
          return fmt::format("{}: {} is not a JSON Schema type (array, boolean, integer, null, number, object, string)",
                             at(), name->dump());
        }
      }
    } else if (key == "properties" || key == "patternProperties" || key == "definitions" || key == "$defs" ||
               key == "dependentSchemas") {
      if (!value.is_object()) return fmt::format("{}: \"{}\" must be an object of schemas", at(), key);
      for (const auto& [name, member] : value.items()) {
        if (!IsSchema(member))
          return fmt::format("{}/{}: a schema must be an object or a boolean", at(), EscapePointerToken(name));
        push(&member, EscapePointerToken(key) + "/" + EscapePointerToken(name));
      }
    } else if (key == "additionalProperties" || key == "additionalItems" || key == "not" || key == "if" ||
               key == "then" || key == "else" || key == "contains" || key == "propertyNames" ||
               key == "unevaluatedProperties" || key == "unevaluatedItems") {
      if (!IsSchema(value)) return fmt::format("{}: \"{}\" must be a schema (an object or a boolean)", at(), key);
      push(&value, EscapePointerToken(key));
    } else if (key == "items" || key == "prefixItems" || key == "allOf" || key == "anyOf" || key == "oneOf") {
      const bool list_only = key != "items";
      if (!list_only && IsSchema(value)) {
        push(&value, EscapePointerToken(key));
        continue;
      }
      if (!value.is_array() || (list_only && value.empty())) {
        return fmt::format("{}: \"{}\" must be {}a non-empty array of schemas", at(), key,
                           list_only ? "" : "a schema or ");
      }
      for (size_t i = 0; i < value.size(); ++i) {
        if (!IsSchema(value[i])) return fmt::format("{}/{}: a schema must be an object or a boolean", at(), i);
        push(&value[i], fmt::format("{}/{}", EscapePointerToken(key), i));
      }
    } else if (key == "required") {
      if (!value.is_array()) return fmt::format("{}: \"required\" must be an array of property names", at());
      for (const Json& name : value) {
        if (!name.is_string()) return fmt::format("{}: \"required\" must be an array of property names", at());
      }
    } else if (key == "enum") {
      if (!value.is_array()) return fmt::format("{}: \"enum\" must be an array", at());
    } else if (key == "maxLength" || key == "minLength" || key == "maxItems" || key == "minItems" ||
               key == "maxProperties" || key == "minProperties") {
      if (!IsCount(value)) return fmt::format("{}: \"{}\" must be a non-negative integer", at(), key);
    } else if (key == "minimum" || key == "maximum") {
      if (!value.is_number()) return fmt::format("{}: \"{}\" must be a number", at(), key);
    } else if (key == "exclusiveMinimum" || key == "exclusiveMaximum") {
      // A number since draft 6, a boolean modifying minimum/maximum in draft 4.
      if (!value.is_number() && !value.is_boolean()) {
        return fmt::format("{}: \"{}\" must be a number (or, in draft 4, a boolean)", at(), key);
      }
    } else if (key == "multipleOf") {
      if (!value.is_number() || value.get<double>() <= 0) {
        return fmt::format("{}: \"multipleOf\" must be a number greater than 0", at());
      }
    } else if (key == "pattern" || key == "format") {
      if (!value.is_string()) return fmt::format("{}: \"{}\" must be a string", at(), key);
    } else if (key == "uniqueItems") {
      if (!value.is_boolean()) return fmt::format("{}: \"uniqueItems\" must be a boolean", at());
    } else if (key == "$ref") {
      if (!value.is_string()) return fmt::format("{}: \"$ref\" must be a string", at());
    }
    // Other keywords are annotations, data ("default", "examples", "const") or ones floe does
    // not know: kept, and compared only by equality (json_schema_compatibility.h).
  }
  return {};
}

// `ref` relative to the directory of `base` when `base` is a URL ("scheme://...") and `ref` is
// neither absolute nor rooted; else `ref` itself.
std::string ResolveAgainst(const std::string& base, std::string_view ref) {
  if (base.find("://") == std::string::npos || ref.find("://") != std::string_view::npos || ref.starts_with('/')) {
    return std::string(ref);
  }
  const size_t slash = base.rfind('/');
  return base.substr(0, slash + 1) + std::string(ref);
}

}  // namespace

Result<JsonSchema> JsonSchema::Parse(std::string_view text, std::span<const JsonSchemaDocument> references) {
  // `$ref`s first: it names the document that is not JSON, or the `$ref` that resolves nowhere.
  FLOE_RETURN_IF_ERROR(CheckJsonSchemaReferences(text, references));
  JsonSchema schema;
  auto add = [&](std::string name, std::string_view document_text) -> Status {
    Json json = Json::parse(document_text, nullptr, /*allow_exceptions=*/false);
    if (json.is_discarded()) return InvalidArgument("{} is not JSON", name);
    if (!IsSchema(json)) return InvalidArgument("{} is not a JSON Schema: a schema is an object or a boolean", name);
    std::string base =
        json.is_object() && json.contains("$id") && json["$id"].is_string() ? json["$id"].get<std::string>() : "";
    // Keywords of every subschema, walked with a stack of our own.
    std::vector<Visited> visited = {{&json, kRoot, ""}};
    std::vector<size_t> stack = {0};
    while (!stack.empty()) {
      const size_t index = stack.back();
      stack.pop_back();
      if (!visited[index].node->is_object()) continue;
      if (std::string wrong = CheckKeywords(index, visited, stack); !wrong.empty()) {
        return InvalidArgument("{}: #{}", name, wrong);
      }
    }
    schema.documents_.push_back({std::move(name), std::move(base), std::move(json)});
    return OkStatus();
  };
  FLOE_RETURN_IF_ERROR(add("the schema", text));
  for (const JsonSchemaDocument& reference : references) {
    FLOE_RETURN_IF_ERROR(add(fmt::format("reference '{}'", reference.name), reference.text));
    schema.by_name_.emplace_back(std::string(reference.name), schema.documents_.size() - 1);
  }
  for (size_t i = 0; i < schema.documents_.size(); ++i) {
    std::string id = schema.documents_[i].base;
    if (id.ends_with('#')) id.pop_back();
    if (!id.empty()) schema.by_name_.emplace_back(std::move(id), i);
  }
  return schema;
}

std::optional<JsonSchema::Location> JsonSchema::Resolve(size_t document, std::string_view ref) const {
  const size_t hash = ref.find('#');
  const std::string_view target_name = ref.substr(0, hash);
  const std::string_view fragment = hash == std::string_view::npos ? "" : ref.substr(hash + 1);
  size_t target = document;
  if (!target_name.empty()) {
    auto find = [&](std::string_view name) -> std::optional<size_t> {
      for (const auto& [known, index] : by_name_) {
        if (known == name) return index;
      }
      return std::nullopt;
    };
    std::optional<size_t> found = find(target_name);
    if (!found) found = find(ResolveAgainst(documents_[document].base, target_name));
    if (!found) return std::nullopt;
    target = *found;
  }
  const Json& json = documents_[target].json;
  if (fragment.empty()) return Location{target, &json};
  if (!fragment.starts_with('/')) return std::nullopt;  // An anchor.
  try {
    const Json::json_pointer pointer{std::string(fragment)};
    if (!json.contains(pointer)) return std::nullopt;
    return Location{target, &json.at(pointer)};
  } catch (const Json::exception&) {
    return std::nullopt;  // Not a valid pointer.
  }
}

}  // namespace floe::json_schema

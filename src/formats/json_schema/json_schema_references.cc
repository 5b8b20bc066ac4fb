#include "formats/json_schema/json_schema_references.h"

#include <fmt/format.h>

#include <map>
#include <nlohmann/json.hpp>
#include <string>
#include <utility>
#include <vector>

#include "formats/json_schema/json_pointer.h"

namespace floe::json_schema {
namespace {

using Json = nlohmann::json;

struct Document {
  std::string name;  // "the schema" or "reference 'address.json'", for errors.
  std::string base;  // Its `$id`, or empty.
  Json json;
};

// `ref` relative to the directory of `base` when `base` is a URL ("scheme://...") and `ref` is
// neither absolute nor rooted; else `ref` itself.
std::string ResolveAgainst(const std::string& base, const std::string& ref) {
  if (base.find("://") == std::string::npos || ref.find("://") != std::string::npos || ref.starts_with('/')) return ref;
  const size_t slash = base.rfind('/');
  return base.substr(0, slash + 1) + ref;
}

// Whether JSON pointer `pointer` ("/definitions/City") points at a value of `json`.
bool PointsAtValue(const Json& json, const std::string& pointer) {
  try {
    return json.contains(Json::json_pointer(pointer));
  } catch (const Json::exception&) {
    return false;  // Not a valid pointer (a '~' not followed by 0 or 1).
  }
}

}  // namespace

Status CheckJsonSchemaReferences(std::string_view schema, std::span<const JsonSchemaDocument> references) {
  std::vector<Document> documents;
  documents.reserve(references.size() + 1);
  auto add = [&](std::string name, std::string_view text) -> Status {
    Json json = Json::parse(text, nullptr, /*allow_exceptions=*/false);
    if (json.is_discarded()) return InvalidArgument("{} is not JSON", name);
    std::string base =
        json.is_object() && json.contains("$id") && json["$id"].is_string() ? json["$id"].get<std::string>() : "";
    documents.push_back({std::move(name), std::move(base), std::move(json)});
    return OkStatus();
  };
  FLOE_RETURN_IF_ERROR(add("the schema", schema));
  // The documents a `$ref` can name, by reference name and by `$id` (without a trailing '#').
  std::map<std::string, size_t, std::less<>> by_name;
  for (const JsonSchemaDocument& reference : references) {
    FLOE_RETURN_IF_ERROR(add(fmt::format("reference '{}'", reference.name), reference.text));
    by_name.emplace(std::string(reference.name), documents.size() - 1);
  }
  for (size_t i = 0; i < documents.size(); ++i) {
    std::string id = documents[i].base;
    if (id.ends_with('#')) id.pop_back();
    if (!id.empty()) by_name.emplace(id, i);
  }

  for (const Document& document : documents) {
    // Depth first with a stack of our own. Each value keeps its parent's index and its token,
    // so a JSON pointer is built only for an error: building each one would cost depth squared.
    struct Visited {
      const Json* value;
      size_t parent;
      std::string token;
    };
    constexpr size_t kRoot = static_cast<size_t>(-1);
    std::vector<Visited> visited = {{&document.json, kRoot, ""}};
    std::vector<size_t> stack = {0};
    auto pointer_of = [&](size_t index) {
      std::vector<const std::string*> tokens;
      for (size_t i = index; visited[i].parent != kRoot; i = visited[i].parent) tokens.push_back(&visited[i].token);
      std::string out;
      for (auto it = tokens.rbegin(); it != tokens.rend(); ++it) out += "/" + **it;
      return out;
    };
    while (!stack.empty()) {
      const size_t index = stack.back();
      stack.pop_back();
      const Json* value = visited[index].value;
      if (value->is_array()) {
        for (size_t k = 0; k < value->size(); ++k) {
          visited.push_back({&(*value)[k], index, std::to_string(k)});
          stack.push_back(visited.size() - 1);
        }
        continue;
      }
      if (!value->is_object()) continue;
      for (const auto& [key, member] : value->items()) {
        // Values that are data, not schemas: a "$ref" key in them is no reference.
        if (key == "enum" || key == "const" || key == "default" || key == "examples") continue;
        if (key != "$ref" || !member.is_string()) {
          visited.push_back({&member, index, EscapePointerToken(key)});
          stack.push_back(visited.size() - 1);
          continue;
        }
        const std::string ref = member.get<std::string>();
        const size_t hash = ref.find('#');
        const std::string target_name = ref.substr(0, hash);
        const std::string fragment = hash == std::string::npos ? "" : ref.substr(hash + 1);
        const Document* target = &document;
        if (!target_name.empty()) {
          auto it = by_name.find(target_name);
          if (it == by_name.end()) it = by_name.find(ResolveAgainst(document.base, target_name));
          if (it == by_name.end()) {
            std::string names;
            for (const JsonSchemaDocument& reference : references) {
              names += fmt::format("{}'{}'", names.empty() ? "" : ", ", reference.name);
            }
            return InvalidArgument("{}: \"$ref\": \"{}\" at {}/$ref names no schema reference (references: {})",
                                   document.name, ref, pointer_of(index), names.empty() ? "none" : names);
          }
          target = &documents[it->second];
        }
        if (fragment.starts_with('/') && !PointsAtValue(target->json, fragment)) {
          return InvalidArgument("{}: \"$ref\": \"{}\" at {}/$ref: {} has nothing at #{}", document.name, ref,
                                 pointer_of(index), target->name, fragment);
        }
      }
    }
  }
  return OkStatus();
}

}  // namespace floe::json_schema

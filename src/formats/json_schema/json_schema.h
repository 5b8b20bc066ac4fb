// JsonSchema: a JSON Schema as a Schema Registry holds it, with the documents its schema
// references name, parsed and checked once so that comparisons can follow `$ref`s. Parse
// refuses what Confluent's registry refuses as an invalid schema: text that is not JSON, a
// root that is neither an object nor a boolean, keywords of the wrong shape ("type" naming no
// JSON Schema type, "properties" that is not an object of schemas, "required" that is not an
// array of strings, a negative "maxLength", ...), and a `$ref` that resolves nowhere
// (json_schema_references.h). Every walk keeps its own stack: any nesting is safe. Immutable
// after Parse; any thread.
#pragma once

#include <cstddef>
#include <nlohmann/json.hpp>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "base/result.h"
#include "formats/json_schema/json_schema_references.h"

namespace floe::json_schema {

class JsonSchema {
 public:
  // One parsed document: the schema itself (index 0) or a referenced one.
  struct Document {
    std::string name;  // "the schema" or "reference 'address.json'", for errors.
    std::string base;  // Its `$id`, or empty: relative `$ref`s in it resolve against it.
    nlohmann::json json;
  };
  // A place in a document: what a `$ref` resolves to.
  struct Location {
    size_t document = 0;
    const nlohmann::json* node = nullptr;
  };

  // InvalidArgument naming the document and the JSON pointer of what is wrong.
  static Result<JsonSchema> Parse(std::string_view text, std::span<const JsonSchemaDocument> references);

  Location root() const { return {0, &documents_[0].json}; }
  const Document& document(size_t index) const { return documents_[index]; }
  // `ref` (a `$ref` value) as written in `document`: by reference name or `$id` (also relative
  // to the document's `$id` URL), then its JSON pointer fragment. Nullopt when it names nothing
  // or its fragment is an anchor (plain names are not resolved).
  std::optional<Location> Resolve(size_t document, std::string_view ref) const;

 private:
  std::vector<Document> documents_;
  std::vector<std::pair<std::string, size_t>> by_name_;  // Reference names and `$id`s.
};

}  // namespace floe::json_schema

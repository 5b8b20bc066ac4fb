// CheckJsonSchemaReferences: a JSON Schema's `$ref`s to other documents, checked against the
// schema references the registry gives with it. Confluent's registry and serializers know each
// referenced schema by its reference `name` (and by its own `$id`, when it has one) and resolve
// a `$ref` URL against those: `"$ref": "address.json"` or `"address.json#/definitions/City"`
// names the reference "address.json"; a relative `$ref` in a document whose `$id` is a URL is
// first resolved against that URL's directory. A `$ref` starting with `#` stays in its own
// document. JSON pointer fragments (`#/...`) must point at a value of the document; other
// fragments (anchors) are not checked. Every document, the referenced ones too, is checked.
//
// The stream job decodes JSON Schema records as JSON (the payload is not validated against
// the schema), so this is what it checks of a schema with references: that it is whole.
#pragma once

#include <span>
#include <string_view>

#include "base/result.h"

namespace floe::json_schema {

struct JsonSchemaDocument {
  std::string_view name;  // The reference's name.
  std::string_view text;  // The referenced version's schema.
};

// InvalidArgument naming the document and the JSON pointer of the `$ref` that resolves to
// nothing, or the document that is not JSON. Walks without recursion: any nesting is safe.
Status CheckJsonSchemaReferences(std::string_view schema, std::span<const JsonSchemaDocument> references);

}  // namespace floe::json_schema

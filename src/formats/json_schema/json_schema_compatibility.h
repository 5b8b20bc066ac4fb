// JsonSchemaReadProblems: whether a reader's JSON Schema accepts every document a writer's
// schema accepts, as Confluent's registry checks JSON Schema compatibility (BACKWARD: the new
// schema is the reader and the latest the writer; FORWARD the other way round). A reader that
// can reject what a writer wrote breaks consumers, so each rule asks "can the reader's
// constraint reject a value the writer's allows?":
//  - content models: a property only the writer declares must be allowed by the reader's
//    patternProperties or additionalProperties (a closed reader, `false`, rejects it; a schema
//    must accept the writer's property schema); a property only the reader declares must
//    accept whatever the writer allowed under that name: nothing if the writer is closed, the
//    writer's patternProperties or additionalProperties schema if partially open, any value if
//    open (so only an empty schema may be added to an open model);
//  - `required`: a name the reader requires and the writer does not is a break, unless the
//    reader's property has a `default` (Confluent's rule);
//  - `type`: every writer type must be a reader type; `integer` reads as `number`, not back;
//  - `enum`/`const`: every writer value must be a reader value; a reader enum over a writer
//    without one is a break;
//  - bounds: the reader's minimum/maximum (exclusive or not, draft 4's boolean form too),
//    minLength/maxLength, minItems/maxItems, minProperties/maxProperties may widen, not narrow
//    or appear; multipleOf must divide the writer's; pattern, format, uniqueItems, propertyNames,
//    dependencies, if/then/else must be as the writer's (regular expressions are not compared);
//  - arrays: `items` (one schema, or tuples with additionalItems / prefixItems) compared by
//    position; objects and arrays recursively;
//  - `oneOf`/`anyOf`: each writer member must be accepted by some reader member (members added
//    to the reader are compatible, removed ones are not; overlap is not checked, as in
//    Confluent's); `allOf` reader members must each accept the writer; `not` compares the
//    other way round;
//  - `$ref`s are followed on both sides into the referenced documents (at most 32 hops in a
//    row; a pair of schemas already being compared is assumed compatible, so recursive schemas
//    end);
//  - keywords floe does not know must be equal on both sides.
// Where a rule cannot decide, the answer is incompatible with a message saying so. Messages
// start with the JSON pointer ("#/properties/age") of the change. Bounded: nesting beyond
// kMaxDepth and work beyond kMaxSteps comparisons are reported, never overflow. Any thread.
#pragma once

#include <string>
#include <vector>

#include "formats/json_schema/json_schema.h"

namespace floe::json_schema {

inline constexpr int kMaxDepth = 128;
inline constexpr int kMaxSteps = 100000;

// Why `reader` may reject a document `writer` accepts, one message per problem; empty when it
// accepts them all.
std::vector<std::string> JsonSchemaReadProblems(const JsonSchema& reader, const JsonSchema& writer);

}  // namespace floe::json_schema

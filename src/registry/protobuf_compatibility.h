// Protobuf schema compatibility under the registry's levels (compatibility.h), checking these
// wire-level breaks in every message both files define (matched by full name):
//  - a field number kept with a type whose wire encoding differs: the compatible groups are
//    {int32, uint32, int64, uint64, bool}, {sint32, sint64}, {fixed32, sfixed32},
//    {fixed64, sfixed64}, {string, bytes}; float, double, enums and messages only match
//    themselves (messages and enums by full name);
//  - a field number that changes between singular and repeated (or map), or into or out of a
//    oneof other than the one it was in;
//  - a proto2 `required` field the reader has and the writer lacks.
// Renames are free (the wire has numbers, not names); added and removed optional fields are
// compatible. Not checked: messages added or removed, enum values, changes of a message used
// only through a schema reference (schemas with references are not checked at all).
// Stateless; any thread.
#pragma once

#include <string>
#include <vector>

#include "formats/protobuf/proto_schema.h"
#include "registry/compatibility.h"

namespace floe::registry {

// Why `reader` cannot read what `writer` wrote, one message per problem; empty when it can.
std::vector<std::string> ProtobufReadProblems(const protobuf::ProtoSchema& reader, const protobuf::ProtoSchema& writer);

// As AvroCompatibilityProblems: the candidate against the existing versions (oldest first).
std::vector<std::string> ProtobufCompatibilityProblems(CompatibilityLevel level, const protobuf::ProtoSchema& candidate,
                                                       const std::vector<const protobuf::ProtoSchema*>& existing);

}  // namespace floe::registry

// The Iceberg types of Protobuf fields, for tables made from a writer's Protobuf schema
// (`floe stream --format protobuf|auto` creating its table from the first record) and for the
// columns `--evolve` adds. The same mapping ProtoColumnDecoder reads (formats/protobuf):
// bool -> boolean; int32, sint32, sfixed32 -> int; int64, sint64, sfixed64, uint32, fixed32,
// uint64, fixed64 -> long; float, double, string, bytes -> float, double, string, binary;
// enums -> string; google.protobuf.Timestamp -> timestamptz; wrappers -> their scalar;
// other messages -> struct; repeated -> list; map<K, V> -> map. Every column is optional (a
// later writer may drop a field); list elements and map keys are required, as Protobuf has no
// null element or key. Recursive messages are NotImplemented. Stateless; any thread.
#pragma once

#include "base/result.h"
#include "formats/protobuf/proto_schema.h"
#include "iceberg/schema.h"

namespace floe::stream {

// The type of one field, with new field ids from `*next_id` on.
Result<iceberg::TypePtr> ProtoFieldToIcebergType(const protobuf::ProtoField& field, int32_t* next_id);

// A schema whose columns are the message's fields, ids from 1.
Result<iceberg::Schema> ProtoMessageToSchema(const protobuf::ProtoMessage& message);

}  // namespace floe::stream

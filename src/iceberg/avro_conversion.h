// Mapping between Iceberg types/values and Avro schemas/values (format/spec.md, Appendix A,
// "Avro"): structs become records named "r<field id>", optional fields ["null", T] unions with
// a null default, lists arrays with "element-id", maps with non-string keys arrays of
// "k<key id>_v<value id>" records with logicalType "map", and every field carries "field-id".
//
// Stateless functions; any thread.
#pragma once

#include <string>

#include <nlohmann/json.hpp>

#include "formats/avro/avro_schema.h"
#include "formats/avro/avro_value.h"
#include "iceberg/literal.h"
#include "iceberg/schema.h"

namespace floe::iceberg {

// The Avro schema JSON of a struct type, as a record named `record_name`.
nlohmann::json StructToAvroSchema(const Type& struct_type, const std::string& record_name);

// A primitive Avro value (the non-null branch already chosen) as a literal of `type`; null for
// an Avro null. Corruption when the Avro kind cannot hold that type.
Result<Literal> AvroToLiteral(const Type& type, const avro::AvroValue& value);
avro::AvroValue LiteralToAvro(const Type& type, const Literal& value);

// The other way, for tables made from a writer's schema (`floe stream --format avro`): the
// Iceberg type of an Avro type, with new field ids from `*next_id` on (depth first). A union
// of null and one type is that type, optional; logical types map to their Iceberg types
// (timestamp-* to timestamptz unless `adjust-to-utc` is false or the type is local-*, nanosecond
// timestamps to microseconds, decimals on bytes or fixed, uuid on string or fixed(16)); enums are
// strings and maps have string keys. NotImplemented for other unions and recursive records.
// `*optional` (when given) tells whether the type was a union with null.
Result<TypePtr> AvroToIcebergType(const avro::AvroNode& node, int32_t* next_id, bool* optional = nullptr);
// A schema whose columns are the record's fields, ids from 1.
Result<Schema> AvroRecordToSchema(const avro::AvroNode& record);

}  // namespace floe::iceberg

// Reading data written with one Avro schema as another (Avro specification, "Schema
// Resolution"), matching record fields by Iceberg field id when both schemas carry ids and by
// name otherwise. This is how manifests written by older writers (v1 manifests, or fields
// added since) are read with today's schema: fields the writer lacked take the reader's
// default (null for optional fields), fields the reader does not know are dropped, and
// int->long, int/long->float/double, float->double and string<->bytes are promoted.
//
// Stateless; any thread.
#pragma once

#include "formats/avro/avro_schema.h"
#include "formats/avro/avro_value.h"

namespace floe::avro {

Result<AvroValue> ResolveDatum(const AvroNode& writer, const AvroNode& reader, const AvroValue& value);

// The reader's default for a field (its Avro "default", or null for a field whose type is a
// union with null); InvalidArgument when the field has neither.
Result<AvroValue> DefaultValue(const AvroField& field);

}  // namespace floe::avro

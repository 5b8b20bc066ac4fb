// Avro's binary encoding of one datum (Avro specification, "Binary Encoding"): zig-zag varints,
// little-endian floats, length-prefixed bytes and strings, blocked arrays and maps, unions by
// branch index. Decoding is bounds-checked: a length or count that the remaining input cannot
// hold, a bad union index or enum ordinal, or truncation is a Corruption error, never a read
// past the input or an allocation the input cannot justify.
//
// Stateless functions; any thread.
#pragma once

#include <string>

#include <nlohmann/json.hpp>

#include "base/bytes.h"
#include "formats/avro/avro_schema.h"
#include "formats/avro/avro_value.h"

namespace floe::avro {

// Arrays and maps of zero-byte items (nulls, empty records) carry no bytes to bound their
// count, so decoders cap it at this many instead.
inline constexpr uint64_t kMaxZeroSizeItems = 1 << 20;

// The fewest bytes one datum of `schema` can occupy (0 for null and all-null records).
size_t MinEncodedSize(const AvroNode& schema, int depth = 0);

Result<AvroValue> DecodeDatum(const AvroNode& schema, ByteReader& reader);

// Appends `value` encoded per `schema`. A union picks the branch matching the value's kind
// (null for null values, otherwise the first branch that can hold it). InvalidArgument when
// the value does not fit the schema.
Status EncodeDatum(const AvroNode& schema, const AvroValue& value, std::string* out);

// The value as JSON, records as objects by field name, unions unwrapped, bytes and fixed as
// strings of code points 0-255 (Avro's JSON encoding of bytes).
nlohmann::ordered_json DatumToJson(const AvroNode& schema, const AvroValue& value);

}  // namespace floe::avro

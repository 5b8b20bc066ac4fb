// floe's SQL types and values in PostgreSQL's terms (docs/postgres-wire.md): the type OID and
// size in a RowDescription, a value's text and binary formats, and a bound parameter's bytes
// turned into a SQL literal by its declared type and format. Stateless; any thread.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "base/result.h"
#include "base/time_zone.h"
#include "sql/types/sql_type.h"
#include "sql/types/value.h"

namespace floe::serve::pg {

namespace oid {
inline constexpr int32_t kUnspecified = 0;
inline constexpr int32_t kBool = 16;
inline constexpr int32_t kBytea = 17;
inline constexpr int32_t kInt8 = 20;
inline constexpr int32_t kInt2 = 21;
inline constexpr int32_t kInt4 = 23;
inline constexpr int32_t kText = 25;
inline constexpr int32_t kOid = 26;
inline constexpr int32_t kFloat4 = 700;
inline constexpr int32_t kFloat8 = 701;
inline constexpr int32_t kUnknown = 705;
inline constexpr int32_t kBpchar = 1042;
inline constexpr int32_t kVarchar = 1043;
inline constexpr int32_t kDate = 1082;
inline constexpr int32_t kTime = 1083;
inline constexpr int32_t kTimestamp = 1114;
inline constexpr int32_t kTimestampTz = 1184;
inline constexpr int32_t kInterval = 1186;
inline constexpr int32_t kNumeric = 1700;
inline constexpr int32_t kUuid = 2950;
}  // namespace oid

int32_t TypeOid(const sql::SqlType& type);
int16_t TypeSize(int32_t type_oid);
// PostgreSQL's name for an OID ("int8", "timestamptz"), for format_type-like answers.
std::string_view TypeName(int32_t type_oid);

// A value's text format (PostgreSQL's spelling: t/f, 2024-01-01 10:00:00.5); nullopt for NULL.
// A timestamp with time zone is written in `zone` with its offset (2024-03-31 04:30:00+02), as
// PostgreSQL writes it in the session's TimeZone.
std::optional<std::string> TextValue(const sql::Value& value, const TimeZone& zone = *TimeZone::Utc());
// A value's binary format; kNotImplemented for types without one here.
Result<std::optional<std::string>> BinaryValue(const sql::Value& value);

// A bound parameter as a SQL literal: `bytes` in `format` (0 text, 1 binary) for a parameter
// declared as `type_oid` (0: not declared). kInvalidArgument when the bytes do not fit.
Result<std::string> ParameterLiteral(int32_t type_oid, int16_t format, const std::optional<std::string>& bytes);

// Base-10000 numeric binary format from decimal text ("-12.50") and back.
Result<std::string> EncodeNumeric(std::string_view decimal_text);
Result<std::string> DecodeNumeric(std::string_view bytes);

}  // namespace floe::serve::pg

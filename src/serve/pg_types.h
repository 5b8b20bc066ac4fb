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
// One-dimensional arrays of the scalar types above (pg_type's typarray).
inline constexpr int32_t kBoolArray = 1000;
inline constexpr int32_t kByteaArray = 1001;
inline constexpr int32_t kInt2Array = 1005;
inline constexpr int32_t kInt4Array = 1007;
inline constexpr int32_t kTextArray = 1009;
inline constexpr int32_t kInt8Array = 1016;
inline constexpr int32_t kFloat4Array = 1021;
inline constexpr int32_t kFloat8Array = 1022;
inline constexpr int32_t kTimestampArray = 1115;
inline constexpr int32_t kDateArray = 1182;
inline constexpr int32_t kTimeArray = 1183;
inline constexpr int32_t kTimestampTzArray = 1185;
inline constexpr int32_t kIntervalArray = 1187;
inline constexpr int32_t kNumericArray = 1231;
inline constexpr int32_t kUuidArray = 2951;
}  // namespace oid

int32_t TypeOid(const sql::SqlType& type);
int16_t TypeSize(int32_t type_oid);
// PostgreSQL's name for an OID ("int8", "timestamptz"), for format_type-like answers.
std::string_view TypeName(int32_t type_oid);

// A value's text format (PostgreSQL's spelling: t/f, 2024-01-01 10:00:00.5); nullopt for NULL.
// An array of scalars is PostgreSQL's array literal ({1,2,NULL}, {"a b",""}); maps, rows and
// arrays of them have no PostgreSQL type and go as text in Trino's spelling ({a=1}, [{x=1}]).
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

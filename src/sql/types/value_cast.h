// Casting constant values between SQL types (CAST on literals, implicit coercions of
// literals, constant folding). Pure functions; any thread may call them. They work in UTC: a
// session in another zone has its casts between timestamps, dates and text rewritten into
// `timezone(zone, ...)` calls (binder/session_time_zone.h) before anything folds them.
#pragma once

#include <optional>
#include <string>

#include "base/time_zone.h"
#include "sql/types/value.h"

namespace floe::sql {

// Converts varchar text to `type` the way CAST does; empty when the text does not convert. A
// timestamp with time zone without an offset in the text is local to `zone` (null: UTC).
std::optional<Value> CastFromText(const std::string& text, const SqlType& type, const TimeZone* zone = nullptr);

// A value's text as `CAST(value AS varchar)` gives it in a session whose zone is `zone` (null:
// UTC): a timestamp with time zone as its wall clock there and the zone's name. For results
// shown to people (floe sql, the logic tests); nested values keep Value::ToText's UTC form.
std::string ValueText(const Value& value, const TimeZone* zone);

// CAST(value AS type) for a constant; empty when the cast fails (out of range, bad text) or
// is not defined for constants.
std::optional<Value> CastValue(const Value& value, const SqlType& type);

}  // namespace floe::sql

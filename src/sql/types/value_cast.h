// Casting constant values between SQL types (CAST on literals, implicit coercions of
// literals, constant folding). Pure functions; any thread may call them. The session time zone
// is UTC.
#pragma once

#include <optional>
#include <string>

#include "sql/types/value.h"

namespace floe::sql {

// Converts varchar text to `type` the way CAST does; empty when the text does not convert.
std::optional<Value> CastFromText(const std::string& text, const SqlType& type);

// CAST(value AS type) for a constant; empty when the cast fails (out of range, bad text) or
// is not defined for constants.
std::optional<Value> CastValue(const Value& value, const SqlType& type);

}  // namespace floe::sql

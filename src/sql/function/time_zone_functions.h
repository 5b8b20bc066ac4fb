// Time zone functions: `timezone(zone, value)` (PostgreSQL's and DuckDB's form of AT TIME ZONE:
// an instant to its wall-clock time in the zone, a wall-clock time or date to its instant), the
// text parsing a session zone gives `CAST(text AS timestamp with time zone)`, and Trino's
// `with_timezone` / `at_timezone`. The session zone's rewrite (binder/session_time_zone.h) is
// built on them. Zones come from base/time_zone.h. Pure functions; any thread.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "base/result.h"
#include "sql/function/function_registry.h"
#include "sql/types/value.h"

namespace floe::sql {

// Whether `name` is one of this file's functions (their row form is EvaluateTimeZoneCall).
bool IsTimeZoneFunction(std::string_view name);
// The row form, with the kernels' semantics: NULL in, NULL out; an unknown zone or text that is
// no timestamp is a kInvalidArgument error (try_parse_timestamptz gives NULL instead).
Result<Value> EvaluateTimeZoneCall(std::string_view name, const SqlType& type, const std::vector<Value>& args);

// Registers the functions and their kernels.
void RegisterTimeZoneFunctions(FunctionRegistry& registry);

}  // namespace floe::sql

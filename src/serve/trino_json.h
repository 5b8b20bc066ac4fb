// How Trino's client protocol writes types and values in JSON (docs/trino-protocol.md):
// a column's `type` text and `typeSignature`, and each value as the clients decode it
// (numbers for integers, doubles and booleans; strings for decimals, temporal types and text;
// base64 for varbinary). Stateless; any thread.
#pragma once

#include <nlohmann/json.hpp>
#include <string>

#include "base/base64.h"
#include "base/time_zone.h"
#include "serve/query_error.h"
#include "sql/types/sql_type.h"
#include "sql/types/value.h"

namespace floe::serve {

// {"rawType": "decimal", "arguments": [{"kind": "LONG", "value": 10}, ...]}
nlohmann::json TrinoTypeSignature(const sql::SqlType& type);
// {"name", "type", "typeSignature"}
nlohmann::json TrinoColumn(const std::string& name, const sql::SqlType& type);
// A value as Trino's JSON carries it; a timestamp with time zone as its wall clock in `zone`
// followed by the zone's name ("2024-03-31 04:30:00.000000 Europe/Berlin").
nlohmann::json TrinoValue(const sql::Value& value, const TimeZone& zone = *TimeZone::Utc());
// {"message", "errorCode", "errorName", "errorType", "errorLocation", "failureInfo"}
nlohmann::json TrinoError(const QueryError& error);

}  // namespace floe::serve

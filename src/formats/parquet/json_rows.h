// Renders rows of a column batch as JSON objects, one per line: the mapping `floe parquet cat`
// prints and docs/parquet.md documents (dates and times as ISO-8601 text, decimals as exact
// strings, binary as base64, NaN and infinities as strings, maps with string keys as objects).
// Stateless functions; any thread.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

#include "formats/column_batch.h"

namespace floe::parquet {

// Appends row `row` of `batch` as one JSON object (no newline) to `out`.
void AppendRowJson(const formats::ColumnBatch& batch, int64_t row, std::string* out);

// Appends `s` as a JSON string literal; invalid UTF-8 becomes U+FFFD.
void AppendJsonString(std::string_view s, std::string* out);

// "1970-01-01" for 0; "00:00:00.000000"; "1970-01-01T00:00:00.000000".
std::string FormatDate(int32_t days);
std::string FormatTimeMicros(int64_t micros);
std::string FormatTimestampMicros(int64_t micros);
// "1970-01-01T00:00:00.000000000" for 0.
std::string FormatTimestampNanos(int64_t nanos);

}  // namespace floe::parquet

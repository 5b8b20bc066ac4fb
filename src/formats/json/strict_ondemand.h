// Reading simdjson On-Demand values as strictly as simdjson's DOM parser did, and cheaply.
//
// On-Demand checks only what it is asked for: a value the caller does not read (an unknown
// key's) is stepped over unchecked, an escape is checked only when the string is unescaped,
// and nesting depth is not counted. The event decoder promises that a line is valid JSON in
// full or an error, so these helpers read everything they are given: SkipValue walks a value
// and checks all of it, KeyText and StringText unescape whenever there is an escape (and
// return the raw bytes, with no copy, when there is none), and every value read is consumed so
// that On-Demand checks what follows it. Stage 1 has already checked the whole line's UTF-8,
// string boundaries and unescaped control characters.
//
// Every helper needs the document's input to be padded (simdjson::SIMDJSON_PADDING bytes).
#pragma once

#include <simdjson.h>

#include <charconv>
#include <cstdint>
#include <cstring>
#include <optional>
#include <string_view>

#include "formats/column_batch.h"

namespace floe::formats::json {

namespace od = simdjson::ondemand;

// The DOM parser refused a container at this depth (the line's object is depth 1) and deeper.
inline constexpr int kMaxDepth = static_cast<int>(simdjson::DEFAULT_MAX_DEPTH);

inline bool IsJsonSpace(char c) { return c == ' ' || c == '\t' || c == '\n' || c == '\r'; }

// Whether `name` is what a key without escapes spells byte for byte (no quote, backslash or
// control character; valid UTF-8), so that RawKeyIs can compare a key's raw bytes with it.
inline bool IsPlainKeyName(std::string_view name) {
  for (char c : name) {
    if (c == '"' || c == '\\' || static_cast<unsigned char>(c) < 0x20) return false;
  }
  return simdjson::validate_utf8(name.data(), name.size());
}

// Whether a key's raw bytes (`raw`, just after its opening quote) are exactly `name`, which
// holds no quote or backslash: then the key has no escape and its closing quote follows. Reads
// stop at the first difference, so never more than 7 bytes past the closing quote (padding).
inline bool RawKeyIs(const char* raw, std::string_view name) {
  const char* want = name.data();
  const size_t n = name.size();
  size_t i = 0;
  for (; i + 8 <= n; i += 8) {
    uint64_t x, y;
    std::memcpy(&x, raw + i, 8);
    std::memcpy(&y, want + i, 8);
    if (x != y) return false;
  }
  for (; i < n; ++i) {
    if (raw[i] != want[i]) return false;
  }
  return raw[n] == '"';
}

// A field's key as text: its raw bytes when it holds no escape, else unescaped (which rejects
// a bad escape). Consumes the key.
inline simdjson::simdjson_result<std::string_view> KeyText(od::field& field) {
  const char* raw = field.key().raw();
  const char* p = raw;
  while (*p != '"' && *p != '\\') ++p;  // Stage 1 found the closing quote.
  if (*p == '"') return std::string_view(raw, static_cast<size_t>(p - raw));
  return field.unescaped_key();
}

// A string value's text: the bytes between its quotes when it holds no escape, else unescaped.
// Consumes the value either way: On-Demand steps over an unread string leniently (a string
// followed by ':' passes for a key), so a value must be read for what follows it to be checked.
inline simdjson::simdjson_result<std::string_view> StringText(od::value& value) {
  // The token runs to the next structural character: drop the whitespace before it.
  std::string_view token = value.raw_json_token();
  while (!token.empty() && IsJsonSpace(token.back())) token.remove_suffix(1);
  if (token.size() >= 2 && token.front() == '"' && token.back() == '"') {
    std::string_view body = token.substr(1, token.size() - 2);
    if (std::memchr(body.data(), '\\', body.size()) == nullptr) {
      od::raw_json_string consumed;
      SIMDJSON_TRY(value.get_raw_json_string().get(consumed));
      return body;
    }
  }
  return value.get_string();
}

// A JSON number as the DOM parser read it: a signed 64-bit integer, an unsigned one (past
// INT64_MAX), or a double.
struct Number {
  od::number_type type = od::number_type::signed_integer;
  int64_t i = 0;
  uint64_t u = 0;
  double d = 0;

  bool is_int64() const { return type == od::number_type::signed_integer; }
  double AsDouble() const {
    switch (type) {
      case od::number_type::signed_integer: return static_cast<double>(i);
      case od::number_type::unsigned_integer: return static_cast<double>(u);
      default: return d;
    }
  }
};

// Reads number `value`, refusing what the DOM parser refused (integers past 64 bits included).
// Not On-Demand's get_number(): simdjson 3.0.1's gives 0 for a double of more than 19 digits.
inline simdjson::error_code ReadNumber(od::value& value, Number* out) {
  SIMDJSON_TRY(value.get_number_type().get(out->type));  // From the token's form; reads check it.
  switch (out->type) {
    case od::number_type::signed_integer: return value.get_int64().get(out->i);
    case od::number_type::unsigned_integer: return value.get_uint64().get(out->u);
    default: return value.get_double().get(out->d);
  }
}

// Whether number token `token` (as raw_json_token gives it, whitespace after it included) is a
// fraction or exponent form, or an integer that fits in int64 or uint64 as the DOM parser
// required.
inline bool IntegerTokenFits64Bits(std::string_view token) {
  while (!token.empty() && IsJsonSpace(token.back())) token.remove_suffix(1);
  if (token.find_first_of(".eE") != std::string_view::npos) return true;
  const char* end = token.data() + token.size();
  if (!token.empty() && token.front() == '-') {
    int64_t i;
    return std::from_chars(token.data(), end, i).ec == std::errc();
  }
  uint64_t u;
  return std::from_chars(token.data(), end, u).ec == std::errc();
}

// Reads `value` (a container in it at `depth` or deeper is too deep) and checks all of it.
// When `suggested` is set, it gets the column type a scalar suggests for an unknown key
// (string, long for integers, double, boolean; nothing for null, objects and arrays).
simdjson::error_code SkipValue(od::value value, int depth, std::optional<TypeId>* suggested);

// Whether the document's remaining input is empty: after the line's object, nothing may follow.
inline bool AtEnd(od::document& doc) {
  const char* where;
  return doc.current_location().get(where) == simdjson::OUT_OF_BOUNDS;
}

}  // namespace floe::formats::json

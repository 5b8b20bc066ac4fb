#include "formats/json/plain_line_decoder.h"

#include <simdjson.h>

#include <climits>
#include <cstring>

#include "formats/json/strict_ondemand.h"
#include "formats/json/text_values.h"

#if defined(__SSE2__)
#include <emmintrin.h>
#endif

namespace floe::formats::json {
namespace {

// Whitespace inside a line ('\n' ends it).
const char* SkipSpace(const char* p, const char* end) {
  while (p < end && (*p == ' ' || *p == '\t' || *p == '\r')) ++p;
  return p;
}

bool IsDigit(char c) { return c >= '0' && c <= '9'; }

// The first '"', '\\' or control character at or after `p` (at or past `end` when there is none
// before it); `*ascii` is cleared when a byte before it is not ASCII.
const char* ScanString(const char* p, const char* end, bool* ascii) {
#if defined(__SSE2__)
  const __m128i quote = _mm_set1_epi8('"');
  const __m128i backslash = _mm_set1_epi8('\\');
  const __m128i last_control = _mm_set1_epi8(0x1f);
  for (; p < end; p += 16) {  // Reads at most 15 bytes past `end`, inside the padding.
    __m128i x = _mm_loadu_si128(reinterpret_cast<const __m128i*>(p));
    __m128i control = _mm_cmpeq_epi8(_mm_min_epu8(x, last_control), x);
    __m128i stops = _mm_or_si128(_mm_or_si128(_mm_cmpeq_epi8(x, quote), _mm_cmpeq_epi8(x, backslash)), control);
    auto stop = static_cast<unsigned>(_mm_movemask_epi8(stops));
    auto high = static_cast<unsigned>(_mm_movemask_epi8(x));
    if (stop != 0) {
      if ((high & ((stop & -stop) - 1)) != 0) *ascii = false;
      return p + __builtin_ctz(stop);
    }
    if (high != 0) *ascii = false;
  }
  return p;
#else
  for (; p < end; ++p) {
    auto c = static_cast<unsigned char>(*p);
    if (c == '"' || c == '\\' || c < 0x20) return p;
    if (c >= 0x80) *ascii = false;
  }
  return p;
#endif
}

// Reads the string starting at `p` (its opening quote) when it holds no escape and is valid
// UTF-8: `*text` gets its bytes, `*after` the byte after its closing quote. False otherwise.
[[gnu::always_inline]] inline bool ReadString(const char* p, const char* end, std::string_view* text, const char** after) {
  if (*p != '"') return false;
  bool ascii = true;
  const char* close = ScanString(p + 1, end, &ascii);
  if (close >= end || *close != '"') return false;
  *text = std::string_view(p + 1, static_cast<size_t>(close - p - 1));
  if (!ascii && !simdjson::validate_utf8(text->data(), text->size())) return false;
  *after = close + 1;
  return true;
}

// An integer token -?(0|[1-9][0-9]*) of at most 18 digits (so it fits int64 unchecked) at `p`;
// returns the byte after it, or nullptr. The token may still continue as a fraction or exponent.
const char* ReadInteger(const char* p, int64_t* out) {
  const bool negative = *p == '-';
  p += negative;
  if (!IsDigit(*p)) return nullptr;
  const char* first = p;
  uint64_t v = static_cast<uint64_t>(*p++ - '0');
  if (v == 0) {
    if (IsDigit(*p)) return nullptr;  // A leading zero: not JSON.
  } else {
    while (IsDigit(*p)) {
      if (p - first == 18) return nullptr;
      v = v * 10 + static_cast<uint64_t>(*p++ - '0');
    }
  }
  *out = negative ? -static_cast<int64_t>(v) : static_cast<int64_t>(v);
  return p;
}

bool ContinuesNumber(char c) { return c == '.' || c == 'e' || c == 'E'; }

// A number token of at most 15 significant digits, 22 fraction digits and no exponent at `p`,
// as the nearest double; returns the byte after it, or nullptr. Both the digits (under 2^53)
// and the power of ten (at most 10^22) are exact doubles, so one correctly rounded division
// gives the nearest double to the decimal, as simdjson's parser does.
const char* ReadShortDecimal(const char* p, double* out) {
  static constexpr double kPowersOfTen[] = {1e0,  1e1,  1e2,  1e3,  1e4,  1e5,  1e6,  1e7,  1e8,  1e9,  1e10, 1e11,
                                            1e12, 1e13, 1e14, 1e15, 1e16, 1e17, 1e18, 1e19, 1e20, 1e21, 1e22};
  const bool negative = *p == '-';
  p += negative;
  if (!IsDigit(*p)) return nullptr;
  uint64_t digits = 0;
  int significant = 0;
  // Adds one digit; false past 15 significant digits.
  auto add = [&](char c) {
    digits = digits * 10 + static_cast<uint64_t>(c - '0');
    return digits == 0 || ++significant <= 15;
  };
  if (*p == '0') {
    ++p;
    if (IsDigit(*p)) return nullptr;  // A leading zero: not JSON.
  } else {
    for (; IsDigit(*p); ++p) {
      if (!add(*p)) return nullptr;
    }
  }
  int fraction = 0;
  if (*p == '.') {
    ++p;
    if (!IsDigit(*p)) return nullptr;
    for (; IsDigit(*p); ++p) {
      if (!add(*p) || ++fraction > 22) return nullptr;
    }
  }
  if (*p == 'e' || *p == 'E') return nullptr;
  double value = static_cast<double>(digits) / kPowersOfTen[fraction];
  *out = negative ? -value : value;
  return p;
}

// The literal `word` at `p`, whole, before `end`.
bool IsLiteral(const char* p, const char* end, std::string_view word) {
  return static_cast<size_t>(end - p) >= word.size() && std::memcmp(p, word.data(), word.size()) == 0;
}

}  // namespace

PlainLineDecoder::Slot PlainLineDecoder::MakeSlot(const Field& field) {
  Slot slot{.name = field.name, .plain_name = IsPlainKeyName(field.name), .kind = Kind::kOther, .nullable = field.nullable};
  switch (field.type.id) {
    case TypeId::kString: slot.kind = Kind::kString; break;
    case TypeId::kInt64: slot.kind = Kind::kInt64; break;
    case TypeId::kInt32: slot.kind = Kind::kInt32; break;
    case TypeId::kDouble: slot.kind = Kind::kDouble; break;
    case TypeId::kFloat: slot.kind = Kind::kFloat; break;
    case TypeId::kBoolean: slot.kind = Kind::kBoolean; break;
    case TypeId::kTimestamp:
    case TypeId::kTimestampTz: slot.kind = Kind::kTimestamp; break;
    case TypeId::kDate: slot.kind = Kind::kDate; break;
    case TypeId::kStruct:
      slot.kind = Kind::kStruct;
      for (const Field& child : field.type.children) slot.children.push_back(MakeSlot(child));
      slot.seen.resize(slot.children.size());
      break;
    default: break;
  }
  return slot;
}

PlainLineDecoder::PlainLineDecoder(const std::vector<Field>& fields, EpochUnit unit) : unit_(unit) {
  root_.kind = Kind::kStruct;
  for (const Field& field : fields) root_.children.push_back(MakeSlot(field));
  root_.seen.resize(root_.children.size());
}

// Each case appends exactly what the general path appends for the same value, or declines
// (returns nullptr) where the general path would convert, check further or refuse. Inlined
// into the line loop, as ReadString is: called once per value, calls cost a tenth of decoding.
[[gnu::always_inline]] inline const char* PlainLineDecoder::DecodeValue(Slot& slot, ColumnVector& out, const char* p, const char* end,
                                                                      int depth) {
  if (*p == 'n') {
    if (!slot.nullable || !IsLiteral(p, end, "null")) return nullptr;
    out.AppendNull();
    return p + 4;
  }
  std::string_view text;
  const char* after = nullptr;
  switch (slot.kind) {
    case Kind::kString: {
      if (!ReadString(p, end, &text, &after)) return nullptr;
      if (out.values.size() + text.size() > static_cast<size_t>(INT32_MAX)) return nullptr;
      out.AppendString(text);
      return after;
    }
    case Kind::kInt64:
    case Kind::kInt32: {
      int64_t v;
      after = ReadInteger(p, &v);
      if (after == nullptr || ContinuesNumber(*after)) return nullptr;
      if (slot.kind == Kind::kInt64) {
        out.Append<int64_t>(v);
      } else {
        if (v < INT32_MIN || v > INT32_MAX) return nullptr;
        out.Append<int32_t>(static_cast<int32_t>(v));
      }
      return after;
    }
    case Kind::kDouble:
    case Kind::kFloat: {
      double d;
      after = ReadShortDecimal(p, &d);
      if (after == nullptr) return nullptr;
      if (slot.kind == Kind::kDouble) {
        out.Append<double>(d);
      } else {
        out.Append<float>(static_cast<float>(d));
      }
      return after;
    }
    case Kind::kBoolean: {
      const bool is_true = IsLiteral(p, end, "true");
      if (!is_true && !IsLiteral(p, end, "false")) return nullptr;
      out.Append<uint8_t>(is_true ? 1 : 0);
      return p + (is_true ? 4 : 5);
    }
    case Kind::kTimestamp: {
      if (*p == '"') {
        if (!ReadString(p, end, &text, &after)) return nullptr;
        auto micros = text::ParseTimestamp(text);
        if (!micros) return nullptr;
        out.Append<int64_t>(*micros);
        return after;
      }
      int64_t raw;
      after = ReadInteger(p, &raw);
      if (after == nullptr || ContinuesNumber(*after)) return nullptr;
      auto micros = EpochToMicros(raw, unit_);
      if (!micros) return nullptr;
      out.Append<int64_t>(*micros);
      return after;
    }
    case Kind::kDate: {
      if (*p == '"') {
        if (!ReadString(p, end, &text, &after)) return nullptr;
        auto days = text::ParseDate(text);
        if (!days) return nullptr;
        out.Append<int32_t>(*days);
        return after;
      }
      int64_t days;
      after = ReadInteger(p, &days);
      if (after == nullptr || ContinuesNumber(*after) || days < INT32_MIN || days > INT32_MAX) return nullptr;
      out.Append<int32_t>(static_cast<int32_t>(days));
      return after;
    }
    case Kind::kStruct: {
      if (*p != '{' || depth >= kMaxDepth) return nullptr;
      after = DecodeObject(slot, out.children, p, end, depth + 1);
      if (after == nullptr) return nullptr;
      out.AppendStructSlot(true);
      return after;
    }
    case Kind::kOther: return nullptr;
  }
  return nullptr;
}

// An unknown key's value, stepped over when it is a scalar this path reads whole (checked as
// the general path checks it); anything else (objects, arrays, exponents, long numbers) declines.
const char* PlainLineDecoder::SkipScalar(const char* p, const char* end) {
  switch (*p) {
    case '"': {
      std::string_view text;
      const char* after = nullptr;
      return ReadString(p, end, &text, &after) ? after : nullptr;
    }
    case 't': return IsLiteral(p, end, "true") ? p + 4 : nullptr;
    case 'f': return IsLiteral(p, end, "false") ? p + 5 : nullptr;
    case 'n': return IsLiteral(p, end, "null") ? p + 4 : nullptr;
    default: {
      double unused;
      return ReadShortDecimal(p, &unused);
    }
  }
}

size_t PlainLineDecoder::FindChild(const Slot& object, std::string_view key, size_t first) {
  const size_t n = object.children.size();
  for (size_t k = 0; k < n; ++k) {
    const size_t i = first + k < n ? first + k : first + k - n;
    if (object.children[i].name == key) return i;
  }
  return n;
}

const char* PlainLineDecoder::DecodeObject(Slot& object, std::vector<ColumnVector>& columns, const char* p, const char* end,
                                          int depth) {
  p = SkipSpace(p + 1, end);  // After the '{'.
  if (p >= end) return nullptr;
  Slot* const children = object.children.data();
  uint8_t* const seen = object.seen.data();
  const size_t n = object.children.size();
  std::fill(seen, seen + n, 0);
  size_t expected = 0;  // Events usually list their keys in field order: try the next one first.
  if (*p == '}') {
    ++p;
  } else {
    while (true) {
      const char* after = nullptr;
      size_t match = n;
      // Most keys are the expected field's, spelled plainly: compare the bytes in place.
      const Slot* guess = n > 0 && children[expected].plain_name ? &children[expected] : nullptr;
      if (guess != nullptr && *p == '"' && static_cast<size_t>(end - p) > guess->name.size() + 1 &&
          RawKeyIs(p + 1, guess->name)) {
        match = expected;
        after = p + guess->name.size() + 2;
      } else {
        std::string_view key;
        if (!ReadString(p, end, &key, &after)) return nullptr;
        match = FindChild(object, key, expected);
      }
      if (match == n) {
        // Only the line's own unknown keys are noted (for --evolve), never nested ones.
        if (decline_unknown_keys_ && depth == 1) return nullptr;
      } else {
        if (seen[match]) return nullptr;
        seen[match] = 1;
        expected = match + 1 == n ? 0 : match + 1;
      }
      p = SkipSpace(after, end);
      if (p >= end || *p != ':') return nullptr;
      p = SkipSpace(p + 1, end);
      if (p >= end) return nullptr;
      p = match == n ? SkipScalar(p, end) : DecodeValue(children[match], columns[match], p, end, depth);
      if (p == nullptr) return nullptr;
      p = SkipSpace(p, end);
      if (p >= end) return nullptr;
      if (*p == '}') {
        ++p;
        break;
      }
      if (*p != ',') return nullptr;
      p = SkipSpace(p + 1, end);
      if (p >= end) return nullptr;
    }
  }
  for (size_t i = 0; i < n; ++i) {
    if (seen[i]) continue;
    if (!children[i].nullable) return nullptr;
    columns[i].AppendNull();
  }
  return p;
}

const char* PlainLineDecoder::DecodeLine(const char* line, const char* end, std::vector<ColumnVector>& columns) {
  const char* p = SkipSpace(line, end);
  if (p >= end || *p != '{') return nullptr;
  p = DecodeObject(root_, columns, p, end, 1);
  if (p == nullptr) return nullptr;
  p = SkipSpace(p, end);
  if (p == end) return p;
  return *p == '\n' ? p + 1 : nullptr;
}

}  // namespace floe::formats::json

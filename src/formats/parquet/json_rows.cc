#include "formats/parquet/json_rows.h"

#include "base/base64.h"
#include "base/civil_date.h"
#include "base/floor_div.h"

#include <fmt/format.h>

#include <cmath>
#include <cstring>

namespace floe::parquet {
namespace {

using formats::ColumnVector;
using formats::TypeId;

// Binary as a JSON string of its base64 text.
void AppendBase64String(std::string_view s, std::string* out) {
  out->push_back('"');
  AppendBase64(s, out);
  out->push_back('"');
}

std::string DecimalString(__int128 v, int scale) {
  bool neg = v < 0;
  unsigned __int128 u = neg ? static_cast<unsigned __int128>(-(v + 1)) + 1 : static_cast<unsigned __int128>(v);
  std::string digits;
  do {
    digits.push_back(static_cast<char>('0' + static_cast<int>(u % 10)));
    u /= 10;
  } while (u != 0);
  while (static_cast<int>(digits.size()) <= scale) digits.push_back('0');
  std::string out = neg ? "-" : "";
  for (size_t i = digits.size(); i-- > 0;) {
    out.push_back(digits[i]);
    if (scale > 0 && i == static_cast<size_t>(scale)) out.push_back('.');
  }
  return out;
}

template <typename T>
void AppendFloat(T v, std::string* out) {
  if (std::isnan(v)) {
    out->append("\"NaN\"");
  } else if (std::isinf(v)) {
    out->append(v > 0 ? "\"Infinity\"" : "\"-Infinity\"");
  } else {
    fmt::format_to(std::back_inserter(*out), "{}", v);
  }
}

void AppendValue(const ColumnVector& v, int64_t i, std::string* out) {
  if (!v.IsValid(i)) {
    out->append("null");
    return;
  }
  const formats::DataType& t = v.type();
  switch (t.id) {
    case TypeId::kBoolean: out->append(v.Data<uint8_t>()[i] ? "true" : "false"); return;
    case TypeId::kInt32: fmt::format_to(std::back_inserter(*out), "{}", v.Data<int32_t>()[i]); return;
    case TypeId::kInt64: fmt::format_to(std::back_inserter(*out), "{}", v.Data<int64_t>()[i]); return;
    case TypeId::kFloat: AppendFloat(v.Data<float>()[i], out); return;
    case TypeId::kDouble: AppendFloat(v.Data<double>()[i], out); return;
    case TypeId::kDecimal: {
      __int128 x;
      std::memcpy(&x, v.values.data() + i * 16, 16);
      out->push_back('"');
      out->append(DecimalString(x, t.scale));
      out->push_back('"');
      return;
    }
    case TypeId::kDate: fmt::format_to(std::back_inserter(*out), "\"{}\"", FormatDate(v.Data<int32_t>()[i])); return;
    case TypeId::kTime: fmt::format_to(std::back_inserter(*out), "\"{}\"", FormatTimeMicros(v.Data<int64_t>()[i])); return;
    case TypeId::kTimestamp:
      fmt::format_to(std::back_inserter(*out), "\"{}\"", FormatTimestampMicros(v.Data<int64_t>()[i]));
      return;
    case TypeId::kTimestampTz:
      fmt::format_to(std::back_inserter(*out), "\"{}Z\"", FormatTimestampMicros(v.Data<int64_t>()[i]));
      return;
    case TypeId::kTimestampNs:
      fmt::format_to(std::back_inserter(*out), "\"{}\"", FormatTimestampNanos(v.Data<int64_t>()[i]));
      return;
    case TypeId::kTimestampTzNs:
      fmt::format_to(std::back_inserter(*out), "\"{}Z\"", FormatTimestampNanos(v.Data<int64_t>()[i]));
      return;
    case TypeId::kString: AppendJsonString(v.StringAt(i), out); return;
    case TypeId::kBinary: AppendBase64String(v.StringAt(i), out); return;
    case TypeId::kFixed: AppendBase64String(v.FixedAt(i), out); return;
    case TypeId::kUuid: {
      std::string_view b = v.FixedAt(i);
      out->push_back('"');
      for (size_t k = 0; k < 16; ++k) {
        if (k == 4 || k == 6 || k == 8 || k == 10) out->push_back('-');
        fmt::format_to(std::back_inserter(*out), "{:02x}", static_cast<uint8_t>(b[k]));
      }
      out->push_back('"');
      return;
    }
    case TypeId::kStruct: {
      out->push_back('{');
      for (size_t c = 0; c < v.children.size(); ++c) {
        if (c) out->push_back(',');
        AppendJsonString(t.children[c].name, out);
        out->push_back(':');
        AppendValue(v.children[c], i, out);
      }
      out->push_back('}');
      return;
    }
    case TypeId::kList: {
      out->push_back('[');
      for (int32_t k = v.offsets[static_cast<size_t>(i)]; k < v.offsets[static_cast<size_t>(i) + 1]; ++k) {
        if (k != v.offsets[static_cast<size_t>(i)]) out->push_back(',');
        AppendValue(v.children[0], k, out);
      }
      out->push_back(']');
      return;
    }
    case TypeId::kMap: {
      bool string_keys = t.children[0].type.id == TypeId::kString;
      out->push_back(string_keys ? '{' : '[');
      for (int32_t k = v.offsets[static_cast<size_t>(i)]; k < v.offsets[static_cast<size_t>(i) + 1]; ++k) {
        if (k != v.offsets[static_cast<size_t>(i)]) out->push_back(',');
        if (string_keys) {
          AppendValue(v.children[0], k, out);
          out->push_back(':');
          AppendValue(v.children[1], k, out);
        } else {
          out->append("{\"key\":");
          AppendValue(v.children[0], k, out);
          out->append(",\"value\":");
          AppendValue(v.children[1], k, out);
          out->push_back('}');
        }
      }
      out->push_back(string_keys ? '}' : ']');
      return;
    }
  }
}

}  // namespace

std::string FormatDate(int32_t days) {
  CivilDate d = CivilFromDays(days);
  return fmt::format("{:04}-{:02}-{:02}", d.year, d.month, d.day);
}

std::string FormatTimeMicros(int64_t micros) {
  int64_t s = micros / 1000000, us = micros % 1000000;
  return fmt::format("{:02}:{:02}:{:02}.{:06}", s / 3600, s / 60 % 60, s % 60, us);
}

std::string FormatTimestampNanos(int64_t nanos) {
  int64_t micros = FloorDiv(nanos, 1000);
  return FormatTimestampMicros(micros) + fmt::format("{:03}", nanos - micros * 1000);
}

std::string FormatTimestampMicros(int64_t micros) {
  int64_t days = FloorDiv(micros, 86400000000LL);
  int64_t rest = micros - days * 86400000000LL;
  return FormatDate(static_cast<int32_t>(days)) + "T" + FormatTimeMicros(rest);
}

void AppendJsonString(std::string_view s, std::string* out) {
  out->push_back('"');
  size_t i = 0;
  while (i < s.size()) {
    auto c = static_cast<uint8_t>(s[i]);
    if (c < 0x80) {
      switch (c) {
        case '"': out->append("\\\""); break;
        case '\\': out->append("\\\\"); break;
        case '\n': out->append("\\n"); break;
        case '\r': out->append("\\r"); break;
        case '\t': out->append("\\t"); break;
        default:
          if (c < 0x20) {
            fmt::format_to(std::back_inserter(*out), "\\u{:04x}", c);
          } else {
            out->push_back(static_cast<char>(c));
          }
      }
      ++i;
      continue;
    }
    size_t len = (c >> 5) == 6 ? 2 : (c >> 4) == 14 ? 3 : (c >> 3) == 30 ? 4 : 0;
    bool ok = len > 0 && i + len <= s.size();
    for (size_t k = 1; ok && k < len; ++k) ok = (static_cast<uint8_t>(s[i + k]) & 0xC0) == 0x80;
    if (ok) {
      out->append(s.substr(i, len));
      i += len;
    } else {
      out->append("\xEF\xBF\xBD");
      ++i;
    }
  }
  out->push_back('"');
}

void AppendRowJson(const formats::ColumnBatch& batch, int64_t row, std::string* out) {
  out->push_back('{');
  for (size_t c = 0; c < batch.columns.size(); ++c) {
    if (c) out->push_back(',');
    AppendJsonString(batch.fields[c].name, out);
    out->push_back(':');
    AppendValue(batch.columns[c], row, out);
  }
  out->push_back('}');
}

}  // namespace floe::parquet

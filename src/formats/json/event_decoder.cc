#include "formats/json/event_decoder.h"

#include <simdjson.h>

#include <cmath>
#include <cstring>
#include <optional>
#include <utility>

#include "formats/json/text_values.h"

namespace floe::formats {
namespace {

namespace dom = simdjson::dom;
using simdjson::dom::element_type;

// One field's decoding plan: its type and, for structs, a name lookup over its children.
struct Node {
  const Field* field = nullptr;
  std::vector<Node> children;
  std::vector<uint8_t> seen;  // Structs: which children the current object set.
};

Node Compile(const Field& f) {
  Node n;
  n.field = &f;
  for (const Field& c : f.type.children) n.children.push_back(Compile(c));
  n.seen.resize(n.children.size());
  return n;
}

// Shrinks `v` back to `length` slots, undoing appends made by a failed line. Children are cut
// even when `v` itself has no slot past `length`: the line may have failed inside a struct or
// list value, after appending to its children but before closing its slot.
void Truncate(ColumnVector& v, int64_t length) {
  const DataType& t = v.type();
  if (t.id == TypeId::kStruct) {
    for (auto& c : v.children) Truncate(c, length);
  } else if (t.id == TypeId::kList || t.id == TypeId::kMap) {
    for (auto& c : v.children) Truncate(c, v.offsets[static_cast<size_t>(length)]);
  }
  if (v.length <= length) return;
  if (!v.validity.empty()) v.validity.resize(static_cast<size_t>(length));
  switch (t.id) {
    case TypeId::kString:
    case TypeId::kBinary:
      v.values.Resize(static_cast<size_t>(v.offsets[static_cast<size_t>(length)]));
      v.offsets.resize(static_cast<size_t>(length) + 1);
      break;
    case TypeId::kList:
    case TypeId::kMap:
      v.offsets.resize(static_cast<size_t>(length) + 1);
      break;
    case TypeId::kStruct:
      break;
    default:
      v.values.Resize(static_cast<size_t>(length) * static_cast<size_t>(t.FixedWidth()));
      break;
  }
  v.length = length;
}

// Key comparison without a library call: keys are short and usually match on the first try.
inline bool SameKey(const std::string& name, std::string_view key) {
  if (name.size() != key.size()) return false;
  const char* a = name.data();
  const char* b = key.data();
  size_t n = key.size(), i = 0;
  for (; i + 8 <= n; i += 8) {
    uint64_t x, y;
    std::memcpy(&x, a + i, 8);
    std::memcpy(&y, b + i, 8);
    if (x != y) return false;
  }
  for (; i < n; ++i) {
    if (a[i] != b[i]) return false;
  }
  return true;
}

std::unexpected<Error> Bad(const Field& f, std::string_view what) {
  return InvalidArgument("field '{}': {}", f.name, what);
}

}  // namespace

struct JsonEventDecoder::Impl {
  std::vector<Field> fields;
  Node root;  // A struct node over the top-level fields.
  Field root_field;
  EpochUnit unit = EpochUnit::kMicros;
  dom::parser parser;
  ColumnBatch batch;
  std::vector<LineError> errors;
  std::string scratch;
  std::string one;
  bool collect_unknown = false;
  std::map<std::string, TypeId> unknown;

  void NoteUnknown(std::string_view key, dom::element value) {
    TypeId type;
    switch (value.type()) {
      case dom::element_type::STRING: type = TypeId::kString; break;
      case dom::element_type::INT64:
      case dom::element_type::UINT64: type = TypeId::kInt64; break;
      case dom::element_type::DOUBLE: type = TypeId::kDouble; break;
      case dom::element_type::BOOL: type = TypeId::kBoolean; break;
      default: return;
    }
    auto [it, inserted] = unknown.emplace(std::string(key), type);
    if (!inserted && it->second != type) {
      bool numbers = (it->second == TypeId::kInt64 || it->second == TypeId::kDouble) &&
                     (type == TypeId::kInt64 || type == TypeId::kDouble);
      if (numbers) it->second = TypeId::kDouble;
    }
  }

  void Reset() {
    batch = MakeEmptyBatch(fields);
  }

  // The epoch number `raw` (in `unit`) as microseconds; nullopt when that overflows 64 bits.
  std::optional<int64_t> ToMicros(int64_t raw) const {
    switch (unit) {
      case EpochUnit::kMillis: {
        int64_t micros;
        if (__builtin_mul_overflow(raw, int64_t{1000}, &micros)) return std::nullopt;
        return micros;
      }
      case EpochUnit::kNanos: {  // Floor, so instants before the epoch round down like Iceberg's.
        int64_t micros = raw / 1000;
        if (raw % 1000 < 0) --micros;
        return micros;
      }
      default: return raw;
    }
  }

  Status AppendPrimitive(const Field& f, ColumnVector& out, dom::element v, element_type type) {
    const DataType& t = f.type;
    std::string_view text;
    bool is_string = type == element_type::STRING;
    bool is_number = type == element_type::INT64 || type == element_type::UINT64 || type == element_type::DOUBLE;
    if (is_string) {
      if (v.get_string().get(text)) return Bad(f, "bad string");
    }
    switch (t.id) {
      case TypeId::kBoolean: {
        bool b;
        if (type == element_type::BOOL) {
          if (v.get_bool().get(b)) return Bad(f, "bad boolean");
        } else if (is_string && (text == "true" || text == "false")) {
          b = text == "true";
        } else {
          return Bad(f, "expected a boolean");
        }
        out.Append<uint8_t>(b ? 1 : 0);
        return OkStatus();
      }
      case TypeId::kInt32:
      case TypeId::kInt64: {
        int64_t x;
        if (is_number) {
          if (v.get_int64().get(x)) {
            double d;
            if (v.get_double().get(d) || d != std::floor(d) || std::fabs(d) > 9.2e18) return Bad(f, "expected an integer");
            x = static_cast<int64_t>(d);
          }
        } else if (is_string) {
          auto p = text::ParseInt(text);
          if (!p) return Bad(f, "expected an integer");
          x = *p;
        } else {
          return Bad(f, "expected an integer");
        }
        if (t.id == TypeId::kInt32) {
          if (x < INT32_MIN || x > INT32_MAX) return Bad(f, "integer out of range for int");
          out.Append<int32_t>(static_cast<int32_t>(x));
        } else {
          out.Append<int64_t>(x);
        }
        return OkStatus();
      }
      case TypeId::kFloat:
      case TypeId::kDouble: {
        double d;
        if (is_number) {
          if (v.get_double().get(d)) return Bad(f, "bad number");
        } else if (is_string) {
          auto p = text::ParseDouble(text);
          if (!p) return Bad(f, "expected a number");
          d = *p;
        } else {
          return Bad(f, "expected a number");
        }
        if (t.id == TypeId::kFloat) {
          out.Append<float>(static_cast<float>(d));
        } else {
          out.Append<double>(d);
        }
        return OkStatus();
      }
      case TypeId::kDecimal: {
        if (is_number) {
          // DOM numbers carry no source text: integers are exact, other numbers go through
          // their shortest double form (strings keep every digit).
          scratch = NumberText(v, type);
          text = scratch;
        } else if (!is_string) {
          return Bad(f, "expected a decimal");
        }
        auto p = text::ParseDecimal(text, t.precision, t.scale);
        if (!p) return Bad(f, fmt::format("'{}' is not a decimal({}, {})", text, t.precision, t.scale));
        out.Append<__int128>(*p);
        return OkStatus();
      }
      case TypeId::kDate: {
        if (is_string) {
          auto p = text::ParseDate(text);
          if (!p) return Bad(f, fmt::format("'{}' is not a date", text));
          out.Append<int32_t>(*p);
          return OkStatus();
        }
        int64_t days;
        if (!is_number || v.get_int64().get(days) || days < INT32_MIN || days > INT32_MAX) {
          return Bad(f, "expected a date");
        }
        out.Append<int32_t>(static_cast<int32_t>(days));
        return OkStatus();
      }
      case TypeId::kTime: {
        if (is_string) {
          auto p = text::ParseTime(text);
          if (!p) return Bad(f, fmt::format("'{}' is not a time", text));
          out.Append<int64_t>(*p);
          return OkStatus();
        }
        int64_t raw;
        if (!is_number || v.get_int64().get(raw)) return Bad(f, "expected a time");
        auto micros = ToMicros(raw);
        if (!micros) return Bad(f, "time out of range");
        out.Append<int64_t>(*micros);
        return OkStatus();
      }
      case TypeId::kTimestamp:
      case TypeId::kTimestampTz: {
        if (is_string) {
          auto p = text::ParseTimestamp(text);
          if (!p) {
            auto n = text::ParseInt(text);
            if (!n) return Bad(f, fmt::format("'{}' is not a timestamp", text));
            p = ToMicros(*n);
            if (!p) return Bad(f, fmt::format("'{}' is out of range for a timestamp", text));
          }
          out.Append<int64_t>(*p);
          return OkStatus();
        }
        int64_t raw;
        if (!is_number) return Bad(f, "expected a timestamp");
        if (v.get_int64().get(raw)) {
          double d;
          if (v.get_double().get(d)) return Bad(f, "bad timestamp number");
          // 2^63 as a double: anything at or past it (or NaN) has no int64 value.
          if (!(d > -9223372036854775808.0 && d < 9223372036854775808.0)) return Bad(f, "timestamp out of range");
          raw = static_cast<int64_t>(d);
        }
        auto micros = ToMicros(raw);
        if (!micros) return Bad(f, "timestamp out of range");
        out.Append<int64_t>(*micros);
        return OkStatus();
      }
      case TypeId::kString: {
        if (!is_string) {
          if (type == element_type::OBJECT || type == element_type::ARRAY) return Bad(f, "expected a string");
          if (type == element_type::BOOL) {
            scratch = bool(v) ? "true" : "false";
          } else {
            scratch = NumberText(v, type);
          }
          text = scratch;
        }
        if (out.values.size() + text.size() > static_cast<size_t>(INT32_MAX)) return ResourceExhausted("batch over 2 GiB of text");
        out.AppendString(text);
        return OkStatus();
      }
      case TypeId::kBinary:
      case TypeId::kFixed: {
        if (!is_string) return Bad(f, "expected base64 text");
        auto p = text::DecodeBase64(text);
        if (!p) return Bad(f, "bad base64");
        if (t.id == TypeId::kFixed) {
          if (static_cast<int32_t>(p->size()) != t.width) return Bad(f, fmt::format("{} bytes for fixed[{}]", p->size(), t.width));
          out.MarkAndAppendFixed(*p);
        } else {
          out.AppendString(*p);
        }
        return OkStatus();
      }
      case TypeId::kUuid: {
        if (!is_string) return Bad(f, "expected a uuid string");
        auto p = text::ParseUuid(text);
        if (!p) return Bad(f, fmt::format("'{}' is not a uuid", text));
        out.MarkAndAppendFixed(*p);
        return OkStatus();
      }
      default:
        return Internal("not a primitive");
    }
  }

  static std::string NumberText(dom::element v, element_type type) {
    if (type == element_type::INT64) return fmt::format("{}", int64_t(v));
    if (type == element_type::UINT64) return fmt::format("{}", uint64_t(v));
    return fmt::format("{}", double(v));
  }

  Status AppendValue(Node& node, ColumnVector& out, dom::element v) {
    const Field& f = *node.field;
    element_type type = v.type();
    if (type == element_type::NULL_VALUE) {
      if (!f.nullable) return Bad(f, "null for a required field");
      out.AppendNull();
      return OkStatus();
    }
    switch (f.type.id) {
      case TypeId::kStruct: {
        dom::object obj;
        if (type != element_type::OBJECT || v.get_object().get(obj)) return Bad(f, "expected an object");
        FLOE_RETURN_IF_ERROR(AppendObject(node, out.children, obj));
        out.AppendStructSlot(true);
        return OkStatus();
      }
      case TypeId::kList: {
        dom::array arr;
        if (type != element_type::ARRAY || v.get_array().get(arr)) return Bad(f, "expected an array");
        for (dom::element ev : arr) FLOE_RETURN_IF_ERROR(AppendValue(node.children[0], out.children[0], ev));
        out.AppendListEnd(true);
        return OkStatus();
      }
      case TypeId::kMap: {
        dom::object obj;
        if (type != element_type::OBJECT || v.get_object().get(obj)) return Bad(f, "expected an object");
        if (f.type.children[0].type.id != TypeId::kString) return Bad(f, "maps from JSON need string keys");
        for (dom::key_value_pair kv : obj) {
          out.children[0].AppendString(kv.key);
          FLOE_RETURN_IF_ERROR(AppendValue(node.children[1], out.children[1], kv.value));
        }
        out.AppendListEnd(true);
        return OkStatus();
      }
      default:
        return AppendPrimitive(f, out, v, type);
    }
  }

  // Fills `columns` (one per child of `node`) from `obj`; missing keys become nulls.
  Status AppendObject(Node& node, std::vector<ColumnVector>& columns, dom::object obj) {
    std::fill(node.seen.begin(), node.seen.end(), 0);
    const size_t n = node.children.size();
    size_t hint = 0;
    for (dom::key_value_pair field : obj) {
      std::string_view key = field.key;
      // Events usually list their keys in schema order: try the next expected field first.
      size_t match = n;
      for (size_t k = 0; k < n; ++k) {
        size_t i = hint + k < n ? hint + k : hint + k - n;
        if (SameKey(node.children[i].field->name, key)) {
          match = i;
          break;
        }
      }
      if (match == n) {  // Unknown keys are ignored (and noted, for --evolve).
        if (collect_unknown && &node == &root) NoteUnknown(key, field.value);
        continue;
      }
      if (node.seen[match]) return InvalidArgument("field '{}' appears twice", key);
      node.seen[match] = 1;
      hint = match + 1 == n ? 0 : match + 1;
      FLOE_RETURN_IF_ERROR(AppendValue(node.children[match], columns[match], field.value));
    }
    for (size_t i = 0; i < n; ++i) {
      if (node.seen[i]) continue;
      const Field& f = *node.children[i].field;
      if (!f.nullable) return InvalidArgument("required field '{}' is missing", f.name);
      columns[i].AppendNull();
    }
    return OkStatus();
  }

  Status DecodeLine(const char* data, size_t len, size_t capacity) {
    (void)capacity;  // The caller guarantees kPadding readable bytes after the line.
    dom::element doc;
    if (auto e = parser.parse(data, len, false).get(doc)) return InvalidArgument("{}", simdjson::error_message(e));
    dom::object obj;
    if (doc.get_object().get(obj)) return InvalidArgument("a line must hold one JSON object");
    int64_t before = batch.num_rows;
    Status s = AppendObject(root, batch.columns, obj);
    if (!s) {
      for (auto& c : batch.columns) Truncate(c, before);
      return s;
    }
    ++batch.num_rows;
    return OkStatus();
  }
};

JsonEventDecoder::JsonEventDecoder() : impl_(std::make_unique<Impl>()) {}
JsonEventDecoder::~JsonEventDecoder() = default;

// Nanosecond timestamps (Iceberg v3 tables) are read everywhere but not yet decoded from JSON.
static Status CheckDecodable(const Field& field) {
  if (field.type.id == TypeId::kTimestampNs || field.type.id == TypeId::kTimestampTzNs) {
    return NotImplemented("field '{}': JSON events cannot fill {} columns yet", field.name, TypeIdName(field.type.id));
  }
  for (const Field& child : field.type.children) FLOE_RETURN_IF_ERROR(CheckDecodable(child));
  return OkStatus();
}

Result<std::unique_ptr<JsonEventDecoder>> JsonEventDecoder::Make(std::vector<Field> fields, EpochUnit unit) {
  if (fields.empty()) return InvalidArgument("a JSON event decoder needs at least one field");
  for (const Field& field : fields) FLOE_RETURN_IF_ERROR(CheckDecodable(field));
  std::unique_ptr<JsonEventDecoder> d(new JsonEventDecoder());
  Impl& impl = *d->impl_;
  impl.fields = std::move(fields);
  impl.unit = unit;
  impl.root_field.name = "";
  impl.root_field.type = StructType(impl.fields);
  impl.root = Compile(impl.root_field);
  // Point the root's children at the decoder's own fields (the struct type holds copies).
  for (size_t i = 0; i < impl.fields.size(); ++i) impl.root.children[i] = Compile(impl.fields[i]);
  impl.Reset();
  return d;
}

const std::vector<Field>& JsonEventDecoder::fields() const { return impl_->fields; }

int64_t JsonEventDecoder::DecodeLines(std::string_view text, int64_t first_line) {
  const char* p = text.data();
  const char* end = p + text.size();
  int64_t line = first_line;
  while (p < end) {
    const char* nl = static_cast<const char*>(std::memchr(p, '\n', static_cast<size_t>(end - p)));
    const char* stop = nl ? nl : end;
    size_t len = static_cast<size_t>(stop - p);
    bool blank = true;
    for (const char* q = p; q < stop && blank; ++q) blank = *q == ' ' || *q == '\t' || *q == '\r';
    if (!blank) {
      size_t capacity = static_cast<size_t>(end - p) + kPadding;
      Status s = impl_->DecodeLine(p, len, capacity);
      if (!s) impl_->errors.push_back({line, s.error().message()});
    }
    ++line;
    p = nl ? nl + 1 : end;
  }
  return line - first_line;
}

Status JsonEventDecoder::DecodeOne(std::string_view json) {
  impl_->one.assign(json);
  impl_->one.append(kPadding, ' ');
  return impl_->DecodeLine(impl_->one.data(), json.size(), impl_->one.size());
}

int64_t JsonEventDecoder::buffered_rows() const { return impl_->batch.num_rows; }

ColumnBatch JsonEventDecoder::TakeBatch() {
  ColumnBatch out = std::move(impl_->batch);
  impl_->Reset();
  return out;
}

void JsonEventDecoder::set_collect_unknown_fields(bool on) { impl_->collect_unknown = on; }

std::map<std::string, TypeId> JsonEventDecoder::TakeUnknownFields() { return std::exchange(impl_->unknown, {}); }

const std::vector<LineError>& JsonEventDecoder::errors() const { return impl_->errors; }
void JsonEventDecoder::ClearErrors() { impl_->errors.clear(); }

Result<EpochUnit> ParseEpochUnit(std::string_view text) {
  if (text == "ms") return EpochUnit::kMillis;
  if (text == "us") return EpochUnit::kMicros;
  if (text == "ns") return EpochUnit::kNanos;
  return InvalidArgument("timestamp unit '{}' is not ms, us or ns", text);
}

void AppendEventLine(std::string* lines, std::string_view value, bool is_null) {
  // A blank line would be skipped, and every later line numbered wrong.
  if (is_null || value.find_first_not_of(" \t\r\n") == std::string_view::npos) {
    lines->append("null\n");
    return;
  }
  size_t start = lines->size();
  lines->append(value);
  // Values rarely hold a raw line break: find them with memchr rather than test every byte.
  char* end = lines->data() + lines->size();
  for (char brk : {'\n', '\r'}) {
    for (char* c = lines->data() + start; (c = static_cast<char*>(std::memchr(c, brk, static_cast<size_t>(end - c)))); ++c) *c = ' ';
  }
  lines->push_back('\n');
}

}  // namespace floe::formats

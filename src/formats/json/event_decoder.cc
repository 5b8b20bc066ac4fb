#include "formats/json/event_decoder.h"

#include <simdjson.h>

#include <cmath>
#include <cstring>
#include <optional>
#include <utility>

#include "formats/json/plain_line_decoder.h"
#include "formats/json/strict_ondemand.h"
#include "formats/json/text_values.h"

namespace floe::formats {
namespace {

using json::od::json_type;
namespace od = json::od;

static_assert(JsonEventDecoder::kPadding >= simdjson::SIMDJSON_PADDING);

// One field's decoding plan: its type and, for structs, a name lookup over its children.
struct Node {
  const Field* field = nullptr;
  TypeId type = TypeId::kInt64;
  // A key without escapes spells the name byte for byte (json::IsPlainKeyName), so a key's raw
  // bytes can be compared with it.
  bool plain_name = true;
  std::vector<Node> children;
  std::vector<uint8_t> seen;  // Structs: which children the current object set.
};

Node Compile(const Field& f) {
  Node n;
  n.field = &f;
  n.type = f.type.id;
  n.plain_name = json::IsPlainKeyName(f.name);
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

std::unexpected<Error> Bad(const Field& f, std::string_view what) {
  return InvalidArgument("field '{}': {}", f.name, what);
}

// JSON the parser refused, in field `f`'s value.
std::unexpected<Error> Malformed(const Field& f, simdjson::error_code e) {
  return InvalidArgument("field '{}': {}", f.name, simdjson::error_message(e));
}

std::unexpected<Error> Malformed(simdjson::error_code e) { return InvalidArgument("{}", simdjson::error_message(e)); }

// A JSON number as text, as the DOM parser's value printed (integers exactly, other numbers in
// their shortest double form).
std::string_view NumberText(const json::Number& n, char (&buf)[32]) {
  fmt::format_to_n_result<char*> r;
  switch (n.type) {
    case od::number_type::signed_integer: r = fmt::format_to_n(buf, sizeof buf, "{}", n.i); break;
    case od::number_type::unsigned_integer: r = fmt::format_to_n(buf, sizeof buf, "{}", n.u); break;
    default: r = fmt::format_to_n(buf, sizeof buf, "{}", n.d); break;
  }
  return {buf, static_cast<size_t>(r.out - buf)};
}

// How big a column grew in the last batch taken from the decoder.
struct ColumnShape {
  size_t values = 0, offsets = 0, validity = 0;
  std::vector<ColumnShape> children;
};

ColumnShape ShapeOf(const ColumnVector& v) {
  ColumnShape shape{.values = v.values.size(), .offsets = v.offsets.size(), .validity = v.validity.size(), .children = {}};
  for (const ColumnVector& child : v.children) shape.children.push_back(ShapeOf(child));
  return shape;
}

void ReserveShape(const ColumnShape& shape, ColumnVector* v) {
  v->values.Reserve(shape.values);
  v->offsets.reserve(shape.offsets);
  v->validity.reserve(shape.validity);
  for (size_t i = 0; i < shape.children.size() && i < v->children.size(); ++i) ReserveShape(shape.children[i], &v->children[i]);
}

}  // namespace

struct JsonEventDecoder::Impl {
  std::vector<Field> fields;
  Node root;  // A struct node over the top-level fields.
  Field root_field;
  EpochUnit unit = EpochUnit::kMicros;
  od::parser parser;
  std::optional<json::PlainLineDecoder> fast;  // The fast path, tried on each line first.
  // After kFastMissesToPause lines in a row that the fast path declined (events it does not
  // take, such as ones with arrays), it rests for kFastPauseLines lines.
  static constexpr int kFastMissesToPause = 8;
  static constexpr int kFastPauseLines = 1024;
  int fast_misses = 0;
  int fast_pause = 0;
  bool fast_enabled = true;
  ColumnBatch batch;
  std::vector<LineError> errors;
  std::string one;
  bool collect_unknown = false;
  std::map<std::string, TypeId> unknown;
  // The current line's unknown keys: noted only once the line is known to be valid JSON.
  std::vector<std::pair<std::string, TypeId>> line_unknown;

  void NoteUnknown(const std::string& key, TypeId type) {
    auto [it, inserted] = unknown.emplace(key, type);
    if (!inserted && it->second != type) {
      bool numbers = (it->second == TypeId::kInt64 || it->second == TypeId::kDouble) &&
                     (type == TypeId::kInt64 || type == TypeId::kDouble);
      if (numbers) it->second = TypeId::kDouble;
    }
  }

  // The sizes of the last batch taken: the next one reserves them when its first line is
  // decoded (by then the last one has usually been written and freed, so its memory is reused)
  // instead of growing by doubling, copying as it goes.
  std::vector<ColumnShape> next_shape;

  void Reset() {
    batch = MakeEmptyBatch(fields);
  }

  void ReserveNextShape() {
    if (next_shape.empty() || batch.num_rows != 0) return;
    for (size_t i = 0; i < next_shape.size() && i < batch.columns.size(); ++i) ReserveShape(next_shape[i], &batch.columns[i]);
    next_shape.clear();
  }

  std::optional<int64_t> ToMicros(int64_t raw) const { return EpochToMicros(raw, unit); }

  // A JSON string, number or boolean (never null) into primitive column `out`.
  Status AppendPrimitive(const Node& node, ColumnVector& out, od::value& v, json_type type) {
    const Field& f = *node.field;
    const DataType& t = f.type;
    std::string_view text;
    const bool is_string = type == json_type::string;
    const bool is_number = type == json_type::number;
    if (is_string) {
      if (auto e = json::StringText(v).get(text)) return Malformed(f, e);
    }
    // Numbers are read once, as the DOM parser read them (decimals read their text instead).
    // Integer and floating-point columns first try the one read they expect (On-Demand leaves
    // a value unread when a read of it fails), the common case costing one parse, not two.
    json::Number number;
    if (is_number) {
      if (t.id == TypeId::kInt64 && !v.get_int64().get(number.i)) {
        out.Append<int64_t>(number.i);
        return OkStatus();
      }
      if (t.id == TypeId::kDouble) {
        const std::string_view token = v.raw_json_token();  // Before the read consumes it.
        if (auto e = v.get_double().get(number.d)) return Malformed(f, e);
        // Integers past 64 bits parse as doubles here, but the DOM parser refused them.
        if (std::fabs(number.d) >= 9.2e18 && !json::IntegerTokenFits64Bits(token)) {
          return Malformed(f, simdjson::NUMBER_OUT_OF_RANGE);
        }
        out.Append<double>(number.d);
        return OkStatus();
      }
      if (t.id != TypeId::kDecimal) {
        if (auto e = json::ReadNumber(v, &number)) return Malformed(f, e);
      }
    }
    switch (t.id) {
      case TypeId::kBoolean: {
        bool b;
        if (type == json_type::boolean) {
          if (auto e = v.get_bool().get(b)) return Malformed(f, e);
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
          if (number.is_int64()) {
            x = number.i;
          } else {
            double d = number.AsDouble();
            if (d != std::floor(d) || std::fabs(d) > 9.2e18) return Bad(f, "expected an integer");
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
          d = number.AsDouble();
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
          // Every digit of the number as written (get_double checks its syntax; integers past
          // 64 bits are fine here, a decimal column may hold them).
          text = v.raw_json_token();
          while (!text.empty() && json::IsJsonSpace(text.back())) text.remove_suffix(1);
          double unused;
          if (auto e = v.get_double().get(unused)) return Malformed(f, e);
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
        if (!is_number || !number.is_int64()) return Bad(f, "expected a date");
        int64_t days = number.i;
        if (days < INT32_MIN || days > INT32_MAX) return Bad(f, "expected a date");
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
        if (!is_number || !number.is_int64()) return Bad(f, "expected a time");
        auto micros = ToMicros(number.i);
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
        if (!is_number) return Bad(f, "expected a timestamp");
        int64_t raw;
        if (number.is_int64()) {
          raw = number.i;
        } else {
          double d = number.AsDouble();
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
        char buf[32];
        if (is_number) {
          text = NumberText(number, buf);
        } else if (type == json_type::boolean) {
          bool b;
          if (auto e = v.get_bool().get(b)) return Malformed(f, e);
          text = b ? "true" : "false";
        } else if (!is_string) {
          return Bad(f, "expected a string");
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

  // Value `v` of field `node` into `out`; a container in it at `depth` or deeper is too deep.
  Status AppendValue(Node& node, ColumnVector& out, od::value& v, int depth) {
    const Field& f = *node.field;
    json_type type;
    if (auto e = v.type().get(type)) return Malformed(f, e);
    if (type == json_type::null) {
      bool is_null;  // An error, unless the whole atom is `null`.
      if (auto e = v.is_null().get(is_null)) return Malformed(f, e);
      if (!f.nullable) return Bad(f, "null for a required field");
      out.AppendNull();
      return OkStatus();
    }
    switch (node.type) {
      case TypeId::kStruct: {
        if (type != json_type::object) return Bad(f, "expected an object");
        if (depth >= json::kMaxDepth) return Malformed(f, simdjson::DEPTH_ERROR);
        od::object obj;
        if (auto e = v.get_object().get(obj)) return Malformed(f, e);
        FLOE_RETURN_IF_ERROR(AppendObject(node, out.children, obj, depth));
        out.AppendStructSlot(true);
        return OkStatus();
      }
      case TypeId::kList: {
        if (type != json_type::array) return Bad(f, "expected an array");
        if (depth >= json::kMaxDepth) return Malformed(f, simdjson::DEPTH_ERROR);
        od::array arr;
        if (auto e = v.get_array().get(arr)) return Malformed(f, e);
        for (auto item : arr) {
          if (auto e = item.error()) return Malformed(f, e);
          od::value& element = item.value_unsafe();
          FLOE_RETURN_IF_ERROR(AppendValue(node.children[0], out.children[0], element, depth + 1));
        }
        out.AppendListEnd(true);
        return OkStatus();
      }
      case TypeId::kMap: {
        if (type != json_type::object) return Bad(f, "expected an object");
        if (f.type.children[0].type.id != TypeId::kString) return Bad(f, "maps from JSON need string keys");
        if (depth >= json::kMaxDepth) return Malformed(f, simdjson::DEPTH_ERROR);
        od::object obj;
        if (auto e = v.get_object().get(obj)) return Malformed(f, e);
        for (auto member : obj) {
          if (auto e = member.error()) return Malformed(f, e);
          od::field& entry = member.value_unsafe();
          std::string_view key;
          if (auto e = json::KeyText(entry).get(key)) return Malformed(f, e);
          out.children[0].AppendString(key);
          FLOE_RETURN_IF_ERROR(AppendValue(node.children[1], out.children[1], entry.value(), depth + 1));
        }
        out.AppendListEnd(true);
        return OkStatus();
      }
      default:
        return AppendPrimitive(node, out, v, type);
    }
  }

  // The child of `node` whose name is `key` (unescaped), or children.size().
  static size_t FindChild(const Node& node, std::string_view key) {
    for (size_t i = 0; i < node.children.size(); ++i) {
      if (node.children[i].field->name == key) return i;
    }
    return node.children.size();
  }

  // Fills `columns` (one per child of `node`) from `obj`, the object at `depth`; missing keys
  // become nulls.
  Status AppendObject(Node& node, std::vector<ColumnVector>& columns, od::object obj, int depth) {
    std::fill(node.seen.begin(), node.seen.end(), 0);
    const size_t n = node.children.size();
    size_t hint = 0;
    for (auto member : obj) {
      if (auto e = member.error()) return Malformed(e);
      od::field& field = member.value_unsafe();
      // Events usually list their keys in schema order: try the next expected field first,
      // on the key's raw bytes (no unescaping, no copy).
      const char* raw = field.key().raw();
      size_t match = n;
      for (size_t k = 0; k < n; ++k) {
        size_t i = hint + k < n ? hint + k : hint + k - n;
        if (node.children[i].plain_name && json::RawKeyIs(raw, node.children[i].field->name)) {
          match = i;
          break;
        }
      }
      if (match == n) {  // A key with escapes, a name that is not plain, or an unknown key.
        std::string_view key;
        if (auto e = json::KeyText(field).get(key)) return Malformed(e);
        match = FindChild(node, key);
        if (match == n) {  // Unknown keys are ignored (and noted, for --evolve), but checked.
          const bool note = collect_unknown && &node == &root;
          std::optional<TypeId> suggested;
          if (auto e = json::SkipValue(field.value(), depth + 1, note ? &suggested : nullptr)) {
            return InvalidArgument("field '{}': {}", key, simdjson::error_message(e));
          }
          if (suggested) line_unknown.emplace_back(std::string(key), *suggested);
          continue;
        }
      }
      if (node.seen[match]) return InvalidArgument("field '{}' appears twice", node.children[match].field->name);
      node.seen[match] = 1;
      hint = match + 1 == n ? 0 : match + 1;
      FLOE_RETURN_IF_ERROR(AppendValue(node.children[match], columns[match], field.value(), depth + 1));
    }
    for (size_t i = 0; i < n; ++i) {
      if (node.seen[i]) continue;
      const Field& f = *node.children[i].field;
      if (!f.nullable) return InvalidArgument("required field '{}' is missing", f.name);
      columns[i].AppendNull();
    }
    return OkStatus();
  }

  // Whether the line is valid JSON in full (the slow path, for a line that failed after noting
  // unknown keys: the DOM parser noted them only for valid JSON).
  bool WholeLineIsJson(const char* data, size_t len, size_t capacity) {
    od::document doc;
    if (parser.iterate(data, len, capacity).get(doc)) return false;
    od::value value;
    if (doc.get_value().get(value)) return false;
    return !json::SkipValue(value, 1, nullptr) && json::AtEnd(doc);
  }

  // The line at `p` decoded on the fast path: where the next line starts, or nullptr when the
  // path is off or resting, or declined the line (then whatever it appended is cut off).
  const char* TryFastPath(const char* p, const char* end) {
    if (!fast_enabled) return nullptr;
    if (fast_pause > 0) {
      --fast_pause;
      return nullptr;
    }
    if (const char* next = fast->DecodeLine(p, end, batch.columns)) {
      ++batch.num_rows;
      fast_misses = 0;
      return next;
    }
    for (auto& c : batch.columns) Truncate(c, batch.num_rows);
    if (++fast_misses == kFastMissesToPause) {
      fast_misses = 0;
      fast_pause = kFastPauseLines;
    }
    return nullptr;
  }

  Status DecodeLine(const char* data, size_t len, size_t capacity) {
    // On-Demand parses as the decoder reads: a line's errors surface while its row is being
    // appended, so a failure undoes the row (Truncate) and the whole line must be read.
    od::document doc;
    if (auto e = parser.iterate(data, len, capacity).get(doc)) return Malformed(e);
    od::object obj;
    if (auto e = doc.get_object().get(obj)) {
      if (e == simdjson::INCORRECT_TYPE) return InvalidArgument("a line must hold one JSON object");
      return Malformed(e);
    }
    int64_t before = batch.num_rows;
    line_unknown.clear();
    Status s = AppendObject(root, batch.columns, obj, 1);
    if (s && !json::AtEnd(doc)) s = Malformed(simdjson::TRAILING_CONTENT);
    if (!s) {
      for (auto& c : batch.columns) Truncate(c, before);
      if (!line_unknown.empty() && WholeLineIsJson(data, len, capacity)) {
        for (const auto& [key, type] : line_unknown) NoteUnknown(key, type);
      }
      return s;
    }
    for (const auto& [key, type] : line_unknown) NoteUnknown(key, type);
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
  impl.fast.emplace(impl.fields, unit);
  impl.Reset();
  return d;
}

const std::vector<Field>& JsonEventDecoder::fields() const { return impl_->fields; }

int64_t JsonEventDecoder::DecodeLines(std::string_view text, int64_t first_line) {
  impl_->ReserveNextShape();
  const char* p = text.data();
  const char* end = p + text.size();
  int64_t line = first_line;
  // Input read once from memory the caches have not seen (a fetch buffer, a large block): lines
  // a few pages ahead are prefetched, since the hardware prefetcher stops at page boundaries.
  constexpr size_t kAhead = 8192;
  const char* prefetched = p;
  while (p < end) {
    for (const char* want = std::min(end, p + kAhead); prefetched < want; prefetched += 64) __builtin_prefetch(prefetched);
    if (const char* next = impl_->TryFastPath(p, end)) {
      ++line;
      p = next;
      continue;
    }
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
  impl_->next_shape.clear();
  for (const ColumnVector& column : impl_->batch.columns) impl_->next_shape.push_back(ShapeOf(column));
  ColumnBatch out = std::move(impl_->batch);
  impl_->Reset();
  return out;
}

void JsonEventDecoder::set_fast_path(bool on) { impl_->fast_enabled = on; }

void JsonEventDecoder::set_collect_unknown_fields(bool on) {
  impl_->collect_unknown = on;
  impl_->fast->set_decline_unknown_keys(on);
}

std::map<std::string, TypeId> JsonEventDecoder::TakeUnknownFields() { return std::exchange(impl_->unknown, {}); }

const std::vector<LineError>& JsonEventDecoder::errors() const { return impl_->errors; }
void JsonEventDecoder::ClearErrors() { impl_->errors.clear(); }

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

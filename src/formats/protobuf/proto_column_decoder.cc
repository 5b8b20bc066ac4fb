#include "formats/protobuf/proto_column_decoder.h"

#include <algorithm>
#include <climits>
#include <cstring>
#include <optional>

#include <fmt/format.h>

#include "base/varint.h"
#include "formats/avro/column_decoder.h"
#include "formats/protobuf/wire_reader.h"

namespace floe::protobuf {

using formats::ColumnVector;
using formats::Field;
using formats::TypeId;

namespace {

// One occurrence of a field on the wire: a varint or fixed value's bits, or a LEN value's bytes.
struct Occurrence {
  uint64_t bits = 0;
  std::string_view bytes;
  size_t at = 0;  // Byte offset of the value, for errors.
  WireType wire = WireType::kVarint;
};

WireType ScalarWire(ProtoType type) {
  switch (type) {
    case ProtoType::kDouble:
    case ProtoType::kFixed64:
    case ProtoType::kSfixed64: return WireType::kFixed64;
    case ProtoType::kFloat:
    case ProtoType::kFixed32:
    case ProtoType::kSfixed32: return WireType::kFixed32;
    case ProtoType::kString:
    case ProtoType::kBytes:
    case ProtoType::kMessage:
    case ProtoType::kGroup: return WireType::kLen;
    default: return WireType::kVarint;
  }
}

bool IsPackable(ProtoType type) { return ScalarWire(type) != WireType::kLen; }

std::string ReaderTypeName(const formats::DataType& type) {
  if (type.id == TypeId::kDecimal) return fmt::format("decimal({}, {})", type.precision, type.scale);
  return std::string(formats::TypeIdName(type.id));
}

std::string WriterTypeName(const ProtoField& field) {
  if (field.message != nullptr) return field.message->full_name;
  if (field.enumeration != nullptr) return "enum " + field.enumeration->full_name;
  return std::string(ProtoTypeName(field.type));
}

// Whether `text` is valid UTF-8 (no overlongs, no surrogates, at most U+10FFFF).
bool ValidUtf8(std::string_view text) {
  const auto* p = reinterpret_cast<const uint8_t*>(text.data());
  const auto* end = p + text.size();
  while (p < end) {
    // Eight ASCII bytes at a time: most strings are ASCII.
    if (end - p >= 8) {
      uint64_t word;
      std::memcpy(&word, p, 8);
      if ((word & 0x8080808080808080ULL) == 0) {
        p += 8;
        continue;
      }
    }
    if (*p < 0x80) {
      ++p;
      continue;
    }
    int n;
    uint32_t cp;
    if ((*p & 0xe0) == 0xc0) {
      n = 1;
      cp = *p & 0x1f;
    } else if ((*p & 0xf0) == 0xe0) {
      n = 2;
      cp = *p & 0x0f;
    } else if ((*p & 0xf8) == 0xf0) {
      n = 3;
      cp = *p & 0x07;
    } else {
      return false;
    }
    if (end - p <= n) return false;
    for (int i = 1; i <= n; ++i) {
      if ((p[i] & 0xc0) != 0x80) return false;
      cp = (cp << 6) | (p[i] & 0x3f);
    }
    if ((n == 1 && cp < 0x80) || (n == 2 && cp < 0x800) || (n == 3 && cp < 0x10000) || cp > 0x10ffff ||
        (cp >= 0xd800 && cp <= 0xdfff)) {
      return false;
    }
    p += n + 1;
  }
  return true;
}

}  // namespace

// How one writer field lands in its column (compiled once per writer message and reader fields).
struct FieldPlan {
  enum class Op : uint8_t {
    kSkip,       // No column: read past.
    kBool,
    kInt32,
    kInt64,
    kFloat,
    kDouble,
    kString,
    kBytes,
    kEnumName,
    kEnumNumber,  // Into an int (kInt32) or long column; `column_is_long` says which.
    kTimestamp,
    kStruct,
    kMap,
  };
  Op op = Op::kSkip;
  const ProtoField* field = nullptr;
  ProtoType scalar = ProtoType::kInt32;  // The wire's type for scalar ops (a wrapper's value type).
  bool wrapper = false;                  // A google.protobuf.*Value around the scalar.
  bool list = false;                     // Repeated (not a map): into a list column's elements.
  bool column_required = false;
  bool column_is_long = false;
  bool nanos = false;  // kTimestamp: nanosecond column.
  int column = -1;
  std::string where;
  std::unique_ptr<MessagePlan> message;  // kStruct: the nested plan; kMap: the entry's.
  // The writer field's facts the scan needs per occurrence, kept here to spare a pointer chase.
  int32_t oneof = -1;
  WireType want = WireType::kVarint;  // Its type's wire type.
  bool repeated = false;
  bool packable = false;
  bool keep_all = false;  // Repeated or a message: every occurrence counts; else the last.
  bool presence = false;
  // Scan state: this message's occurrences of the field (keep_all), or its last value.
  std::vector<Occurrence> seen;
  Occurrence value;
  bool has_value = false;

  void SetWriter(const ProtoField& f) {
    field = &f;
    oneof = f.oneof;
    want = ScalarWire(f.type);
    repeated = f.IsRepeated();
    packable = IsPackable(f.type);
    keep_all = repeated || f.type == ProtoType::kMessage;
    presence = f.HasPresence();
  }
};

struct MessagePlan {
  const ProtoMessage* message = nullptr;
  std::string where;
  std::vector<FieldPlan> fields;    // One per writer field, in the writer's order.
  std::vector<int> small_numbers;   // Field number -> index into fields (or -1), for small numbers.
  std::vector<std::pair<int32_t, int>> large_numbers;  // The rest, sorted by number.
  std::vector<int> column_field;    // Reader column -> index into fields, or -1 (null).
  // Scan state: per oneof, the index of the member set last (or -1).
  std::vector<int> oneof_last;

  int Lookup(int32_t number) const {
    if (static_cast<size_t>(number) < small_numbers.size()) return small_numbers[static_cast<size_t>(number)];
    auto it = std::lower_bound(large_numbers.begin(), large_numbers.end(), std::pair<int32_t, int>{number, INT_MIN});
    return it != large_numbers.end() && it->first == number ? it->second : -1;
  }

  void Begin() {
    for (FieldPlan& f : fields) {
      f.has_value = false;
      if (f.keep_all) f.seen.clear();
    }
    std::fill(oneof_last.begin(), oneof_last.end(), -1);
  }
};

namespace {

constexpr int32_t kSmallNumbers = 256;

Result<std::unique_ptr<MessagePlan>> CompileMessage(const ProtoMessage& writer, const std::vector<Field>& fields,
                                                    const std::string& where, int depth,
                                                    std::vector<const ProtoField*>* unmatched);

// The scalar conversion of a writer scalar type (or enum) into a reader column type.
Status CompileScalar(const ProtoField& field, ProtoType scalar, const formats::DataType& type, FieldPlan& plan) {
  using Op = FieldPlan::Op;
  auto mismatch = [&] {
    return InvalidArgument("column '{}': the writer's {} cannot be read as {}", plan.where,
                           plan.wrapper ? field.message->full_name : std::string(ProtoTypeName(scalar)),
                           ReaderTypeName(type));
  };
  plan.scalar = scalar;
  switch (type.id) {
    case TypeId::kBoolean:
      if (scalar != ProtoType::kBool) return mismatch();
      plan.op = Op::kBool;
      return OkStatus();
    case TypeId::kInt32:
      if (scalar == ProtoType::kEnum) {
        plan.op = Op::kEnumNumber;
        return OkStatus();
      }
      if (scalar != ProtoType::kInt32 && scalar != ProtoType::kSint32 && scalar != ProtoType::kSfixed32) return mismatch();
      plan.op = Op::kInt32;
      return OkStatus();
    case TypeId::kInt64:
      if (scalar == ProtoType::kEnum) {
        plan.op = Op::kEnumNumber;
        plan.column_is_long = true;
        return OkStatus();
      }
      switch (scalar) {
        case ProtoType::kInt32: case ProtoType::kSint32: case ProtoType::kSfixed32: case ProtoType::kUint32:
        case ProtoType::kFixed32: case ProtoType::kInt64: case ProtoType::kSint64: case ProtoType::kSfixed64:
        case ProtoType::kUint64: case ProtoType::kFixed64:
          plan.op = Op::kInt64;
          return OkStatus();
        default: return mismatch();
      }
    case TypeId::kFloat:
      if (scalar != ProtoType::kFloat) return mismatch();
      plan.op = Op::kFloat;
      return OkStatus();
    case TypeId::kDouble:
      if (scalar != ProtoType::kFloat && scalar != ProtoType::kDouble) return mismatch();
      plan.op = Op::kDouble;
      return OkStatus();
    case TypeId::kString:
      if (scalar == ProtoType::kString) {
        plan.op = Op::kString;
      } else if (scalar == ProtoType::kEnum) {
        plan.op = Op::kEnumName;
      } else {
        return mismatch();
      }
      return OkStatus();
    case TypeId::kBinary:
      if (scalar != ProtoType::kBytes && scalar != ProtoType::kString) return mismatch();
      plan.op = Op::kBytes;
      return OkStatus();
    default: return mismatch();
  }
}

// A single value (not repeated) of `field` into a column of `type`.
Status CompileValue(const ProtoField& field, const Field& column, FieldPlan& plan, int depth) {
  const formats::DataType& type = column.type;
  if (field.type == ProtoType::kMessage) {
    const ProtoMessage& m = *field.message;
    if (m.well_known == WellKnown::kTimestamp) {
      const bool micros = type.id == TypeId::kTimestamp || type.id == TypeId::kTimestampTz;
      const bool nanos = type.id == TypeId::kTimestampNs || type.id == TypeId::kTimestampTzNs;
      if (!micros && !nanos) {
        return InvalidArgument("column '{}': the writer's google.protobuf.Timestamp cannot be read as {}", plan.where,
                               ReaderTypeName(type));
      }
      plan.op = FieldPlan::Op::kTimestamp;
      plan.nanos = nanos;
      return OkStatus();
    }
    if (m.well_known == WellKnown::kWrapper) {
      plan.wrapper = true;
      return CompileScalar(field, m.fields[0].type, type, plan);
    }
    if (type.id != TypeId::kStruct) {
      return InvalidArgument("column '{}': the writer's message {} cannot be read as {}", plan.where, m.full_name,
                             ReaderTypeName(type));
    }
    FLOE_ASSIGN_OR_RETURN(plan.message, CompileMessage(m, type.children, plan.where, depth + 1, nullptr));
    plan.op = FieldPlan::Op::kStruct;
    return OkStatus();
  }
  return CompileScalar(field, field.type, type, plan);
}

Result<FieldPlan> CompileField(const ProtoField& field, const Field& column, const std::string& where, int depth) {
  FieldPlan plan;
  plan.SetWriter(field);
  plan.where = where;
  plan.column_required = !column.nullable;
  if (depth > ProtoColumnDecoder::kMaxDepth) {
    return InvalidArgument("column '{}': nested deeper than {}", where, ProtoColumnDecoder::kMaxDepth);
  }
  if (field.IsMap()) {
    if (column.type.id != TypeId::kMap) {
      return InvalidArgument("column '{}': the writer's map cannot be read as {}", where, ReaderTypeName(column.type));
    }
    // The entry's key and value by position into the map's key and value children.
    const ProtoMessage& entry = *field.message;
    auto plan_entry = std::make_unique<MessagePlan>();
    plan_entry->message = &entry;
    plan_entry->where = where;
    for (const ProtoField& f : entry.fields) {
      const size_t child = f.number == 1 ? 0 : 1;
      FLOE_ASSIGN_OR_RETURN(FieldPlan p, CompileField(f, column.type.children[child],
                                                      where + (child == 0 ? ".key" : ".value"), depth + 1));
      p.column = static_cast<int>(child);
      plan_entry->fields.push_back(std::move(p));
    }
    plan_entry->column_field.assign(2, -1);
    for (size_t i = 0; i < plan_entry->fields.size(); ++i) {
      plan_entry->column_field[static_cast<size_t>(plan_entry->fields[i].column)] = static_cast<int>(i);
    }
    plan_entry->small_numbers.assign(3, -1);
    for (size_t i = 0; i < plan_entry->fields.size(); ++i) {
      plan_entry->small_numbers[static_cast<size_t>(plan_entry->fields[i].field->number)] = static_cast<int>(i);
    }
    plan.op = FieldPlan::Op::kMap;
    plan.message = std::move(plan_entry);
    return plan;
  }
  if (field.IsRepeated()) {
    if (column.type.id != TypeId::kList) {
      return InvalidArgument("column '{}': the writer's repeated {} cannot be read as {}", where,
                             WriterTypeName(field), ReaderTypeName(column.type));
    }
    plan.list = true;
    FLOE_RETURN_IF_ERROR(CompileValue(field, column.type.children[0], plan, depth));
    return plan;
  }
  FLOE_RETURN_IF_ERROR(CompileValue(field, column, plan, depth));
  return plan;
}

Result<std::unique_ptr<MessagePlan>> CompileMessage(const ProtoMessage& writer, const std::vector<Field>& fields,
                                                    const std::string& where, int depth,
                                                    std::vector<const ProtoField*>* unmatched) {
  if (depth > ProtoColumnDecoder::kMaxDepth) {
    return InvalidArgument("column '{}': nested deeper than {}", where, ProtoColumnDecoder::kMaxDepth);
  }
  auto plan = std::make_unique<MessagePlan>();
  plan->message = &writer;
  plan->where = where;
  plan->column_field.assign(fields.size(), -1);
  plan->oneof_last.assign(writer.oneofs.size(), -1);
  int32_t max_small = 0;
  for (const ProtoField& wf : writer.fields) {
    std::string path = where.empty() ? wf.name : where + "." + wf.name;
    int index = -1;
    for (size_t i = 0; i < fields.size(); ++i) {
      if (fields[i].name == wf.name) index = static_cast<int>(i);
    }
    FieldPlan fp;
    if (index < 0) {
      fp.op = FieldPlan::Op::kSkip;
      fp.SetWriter(wf);
      fp.where = path;
      if (unmatched != nullptr) unmatched->push_back(&wf);
    } else {
      FLOE_ASSIGN_OR_RETURN(fp, CompileField(wf, fields[static_cast<size_t>(index)], path, depth + 1));
      fp.column = index;
      plan->column_field[static_cast<size_t>(index)] = static_cast<int>(plan->fields.size());
    }
    if (wf.number < kSmallNumbers) max_small = std::max(max_small, wf.number);
    plan->fields.push_back(std::move(fp));
  }
  plan->small_numbers.assign(static_cast<size_t>(max_small) + 1, -1);
  for (size_t i = 0; i < plan->fields.size(); ++i) {
    const int32_t number = plan->fields[i].field->number;
    if (number < kSmallNumbers) {
      plan->small_numbers[static_cast<size_t>(number)] = static_cast<int>(i);
    } else {
      plan->large_numbers.emplace_back(number, static_cast<int>(i));
    }
  }
  std::sort(plan->large_numbers.begin(), plan->large_numbers.end());
  for (size_t i = 0; i < fields.size(); ++i) {
    if (plan->column_field[i] < 0 && !fields[i].nullable) {
      const std::string path = where.empty() ? fields[i].name : where + "." + fields[i].name;
      return InvalidArgument("column '{}' is required but the writer's message {} has no field '{}'", path,
                             writer.full_name, fields[i].name);
    }
  }
  return plan;
}

// Reads messages' fields into their plans' occurrences, then appends them to columns.
class Runner {
 public:
  // Adds the fields of one message's bytes to `plan`'s occurrences (Begin first; several calls
  // merge, as repeated occurrences of a message field do).
  Status Scan(MessagePlan& plan, std::string_view bytes, size_t base) {
    WireReader r(bytes, base);
    while (!r.done()) {
      const size_t tag_at = r.position();
      FLOE_ASSIGN_OR_RETURN(auto tag, r.Tag());
      const auto [number, wire] = tag;
      const int index = plan.Lookup(number);
      if (index < 0) {
        FLOE_RETURN_IF_ERROR(r.Skip(wire, number));  // Unknown to the writer's schema: skipped.
        continue;
      }
      FieldPlan& fp = plan.fields[static_cast<size_t>(index)];
      if (fp.oneof >= 0) plan.oneof_last[static_cast<size_t>(fp.oneof)] = index;
      const bool packed = fp.repeated && fp.packable && wire == WireType::kLen;
      if (wire != fp.want && !packed) {
        return Corruption("field '{}' (number {}) at byte {}: wire type {}, but its type {} is sent as {}",
                          fp.where, number, tag_at, WireTypeName(wire), WriterTypeName(*fp.field),
                          WireTypeName(fp.want));
      }
      if (fp.op == FieldPlan::Op::kSkip) {
        FLOE_RETURN_IF_ERROR(r.Skip(wire, number));
        continue;
      }
      Occurrence occ;
      occ.wire = wire;
      occ.at = r.position();
      switch (wire) {
        case WireType::kVarint: {
          FLOE_ASSIGN_OR_RETURN(occ.bits, r.Varint());
          break;
        }
        case WireType::kFixed32: {
          FLOE_ASSIGN_OR_RETURN(occ.bits, r.Fixed32());
          break;
        }
        case WireType::kFixed64: {
          FLOE_ASSIGN_OR_RETURN(occ.bits, r.Fixed64());
          break;
        }
        case WireType::kLen: {
          FLOE_ASSIGN_OR_RETURN(occ.bytes, r.LengthDelimited());
          occ.at = r.position() - occ.bytes.size();
          break;
        }
        default: return Corruption("field '{}' at byte {}: unexpected {}", fp.where, r.position(), WireTypeName(wire));
      }
      // A singular scalar keeps only its last value; messages and repeated fields keep all.
      if (fp.keep_all) {
        fp.seen.push_back(occ);
      } else {
        fp.value = occ;
        fp.has_value = true;
      }
    }
    return OkStatus();
  }

  // Appends one row of `plan`'s scanned message to `columns` (one per reader field).
  Status Emit(MessagePlan& plan, std::vector<ColumnVector>& columns) {
    for (size_t c = 0; c < columns.size(); ++c) {
      const int index = plan.column_field[c];
      if (index < 0) {
        columns[c].AppendNull();
        continue;
      }
      FieldPlan& fp = plan.fields[static_cast<size_t>(index)];
      // A oneof member that another member overrode is absent.
      const bool overridden = fp.oneof >= 0 && plan.oneof_last[static_cast<size_t>(fp.oneof)] != index;
      FLOE_RETURN_IF_ERROR(EmitField(fp, overridden, columns[c]));
    }
    return OkStatus();
  }

 private:
  Status EmitField(FieldPlan& fp, bool overridden, ColumnVector& column) {
    if (fp.op == FieldPlan::Op::kMap) return EmitMap(fp, column);
    if (fp.list) {
      ColumnVector& elements = column.children[0];
      for (const Occurrence& occ : fp.seen) {
        if (occ.wire == WireType::kLen && fp.packable) {
          FLOE_RETURN_IF_ERROR(EmitPacked(fp, occ, elements));
        } else {
          FLOE_RETURN_IF_ERROR(EmitValue(fp, std::span(&occ, 1), elements));
        }
      }
      if (elements.length > INT32_MAX - 1) return Corruption("column '{}': more elements than a column holds", fp.where);
      column.AppendListEnd(true);
      return OkStatus();
    }
    const bool present = fp.keep_all ? !fp.seen.empty() : fp.has_value;
    if (!present || overridden) {
      if (fp.presence || overridden) {
        const ProtoField& field = *fp.field;
        if (field.label == ProtoLabel::kRequired) {
          return Corruption("field '{}' (number {}) is required and missing", fp.where, field.number);
        }
        if (fp.column_required) return Corruption("column '{}' is required and the message has no '{}'", fp.where, field.name);
        column.AppendNull();
        return OkStatus();
      }
      return AppendZero(fp, column);
    }
    if (fp.keep_all) return EmitValue(fp, fp.seen, column);
    return EmitValue(fp, std::span(&fp.value, 1), column);
  }

  // One value into `column`: a scalar's (last) occurrence, or a message's occurrences merged.
  Status EmitValue(FieldPlan& fp, std::span<const Occurrence> occs, ColumnVector& column) {
    using Op = FieldPlan::Op;
    if (fp.op == Op::kStruct) {
      MessagePlan& nested = *fp.message;
      nested.Begin();
      for (const Occurrence& occ : occs) FLOE_RETURN_IF_ERROR(Scan(nested, occ.bytes, occ.at));
      FLOE_RETURN_IF_ERROR(Emit(nested, column.children));
      column.AppendStructSlot(true);
      return OkStatus();
    }
    if (fp.op == Op::kTimestamp) return EmitTimestamp(fp, occs, column);
    if (fp.wrapper) {
      // The wrapper's one field, `value` = 1; an empty wrapper holds the zero value.
      std::optional<Occurrence> value;
      const WireType want = ScalarWire(fp.scalar);
      for (const Occurrence& occ : occs) {
        WireReader r(occ.bytes, occ.at);
        while (!r.done()) {
          FLOE_ASSIGN_OR_RETURN(auto tag, r.Tag());
          if (tag.first != 1) {
            FLOE_RETURN_IF_ERROR(r.Skip(tag.second, tag.first));
            continue;
          }
          if (tag.second != want) {
            return Corruption("field '{}.value' at byte {}: wire type {}, but {} is sent as {}", fp.where,
                              r.position(), WireTypeName(tag.second), ProtoTypeName(fp.scalar), WireTypeName(want));
          }
          Occurrence v;
          v.wire = tag.second;
          v.at = r.position();
          if (want == WireType::kVarint) {
            FLOE_ASSIGN_OR_RETURN(v.bits, r.Varint());
          } else if (want == WireType::kFixed32) {
            FLOE_ASSIGN_OR_RETURN(v.bits, r.Fixed32());
          } else if (want == WireType::kFixed64) {
            FLOE_ASSIGN_OR_RETURN(v.bits, r.Fixed64());
          } else {
            FLOE_ASSIGN_OR_RETURN(v.bytes, r.LengthDelimited());
          }
          value = v;
        }
      }
      if (!value) return AppendZero(fp, column);
      return AppendScalar(fp, *value, column);
    }
    return AppendScalar(fp, occs.back(), column);
  }

  Status EmitTimestamp(FieldPlan& fp, std::span<const Occurrence> occs, ColumnVector& column) {
    int64_t seconds = 0;
    int64_t nanos = 0;
    for (const Occurrence& occ : occs) {
      WireReader r(occ.bytes, occ.at);
      while (!r.done()) {
        FLOE_ASSIGN_OR_RETURN(auto tag, r.Tag());
        if ((tag.first == 1 || tag.first == 2) && tag.second != WireType::kVarint) {
          return Corruption("field '{}' (Timestamp.{}) at byte {}: wire type {}, expected varint", fp.where,
                            tag.first == 1 ? "seconds" : "nanos", r.position(), WireTypeName(tag.second));
        }
        if (tag.first == 1) {
          FLOE_ASSIGN_OR_RETURN(uint64_t v, r.Varint());
          seconds = static_cast<int64_t>(v);
        } else if (tag.first == 2) {
          FLOE_ASSIGN_OR_RETURN(uint64_t v, r.Varint());
          nanos = static_cast<int32_t>(v);
        } else {
          FLOE_RETURN_IF_ERROR(r.Skip(tag.second, tag.first));
        }
      }
    }
    // Timestamp's documented range: 0001-01-01T00:00:00Z to 9999-12-31T23:59:59.999999999Z.
    if (seconds < -62135596800LL || seconds > 253402300799LL || nanos < 0 || nanos > 999'999'999) {
      return Corruption("field '{}' at byte {}: Timestamp {{seconds: {}, nanos: {}}} out of range", fp.where,
                        occs.front().at, seconds, nanos);
    }
    int64_t value;
    if (fp.nanos) {
      if (__builtin_mul_overflow(seconds, int64_t{1'000'000'000}, &value) || __builtin_add_overflow(value, nanos, &value)) {
        return Corruption("field '{}' at byte {}: Timestamp of {} seconds overflows nanoseconds", fp.where,
                          occs.front().at, seconds);
      }
    } else {
      value = seconds * 1'000'000 + nanos / 1000;  // Nanos are never negative: this floors.
    }
    column.Append<int64_t>(value);
    return OkStatus();
  }

  Status EmitPacked(FieldPlan& fp, const Occurrence& packed, ColumnVector& elements) {
    WireReader r(packed.bytes, packed.at);
    const WireType wire = ScalarWire(fp.scalar);
    while (!r.done()) {
      Occurrence v;
      v.wire = wire;
      v.at = r.position();
      if (wire == WireType::kVarint) {
        FLOE_ASSIGN_OR_RETURN(v.bits, r.Varint());
      } else if (wire == WireType::kFixed32) {
        FLOE_ASSIGN_OR_RETURN(v.bits, r.Fixed32());
      } else {
        FLOE_ASSIGN_OR_RETURN(v.bits, r.Fixed64());
      }
      FLOE_RETURN_IF_ERROR(AppendScalar(fp, v, elements));
    }
    return OkStatus();
  }

  Status EmitMap(FieldPlan& fp, ColumnVector& column) {
    MessagePlan& entry = *fp.message;
    ColumnVector& keys = column.children[0];
    const int64_t first = keys.length;
    for (const Occurrence& occ : fp.seen) {
      entry.Begin();
      FLOE_RETURN_IF_ERROR(Scan(entry, occ.bytes, occ.at));
      FLOE_RETURN_IF_ERROR(Emit(entry, column.children));
    }
    if (keys.length > INT32_MAX - 1) return Corruption("column '{}': more entries than a column holds", fp.where);
    FLOE_RETURN_IF_ERROR(CheckDistinctKeys(fp, keys, first));
    column.AppendListEnd(true);
    return OkStatus();
  }

  // A map's keys of one row must differ: a writer never sends one twice, and a map column with a
  // key twice would be read differently by different engines.
  static Status CheckDistinctKeys(const FieldPlan& fp, const ColumnVector& keys, int64_t first) {
    const int64_t n = keys.length - first;
    if (n < 2) return OkStatus();
    std::vector<std::string_view> seen;
    seen.reserve(static_cast<size_t>(n));
    for (int64_t i = first; i < keys.length; ++i) {
      if (keys.type().HasOffsets()) {
        seen.push_back(keys.StringAt(i));
      } else {
        const auto w = static_cast<size_t>(keys.type().FixedWidth());
        seen.emplace_back(reinterpret_cast<const char*>(keys.values.data()) + static_cast<size_t>(i) * w, w);
      }
    }
    std::sort(seen.begin(), seen.end());
    if (std::adjacent_find(seen.begin(), seen.end()) != seen.end()) {
      return Corruption("map '{}' has a key twice", fp.where);
    }
    return OkStatus();
  }

  Status AppendZero(const FieldPlan& fp, ColumnVector& column) {
    Occurrence zero;
    zero.wire = ScalarWire(fp.scalar);
    if (fp.scalar == ProtoType::kEnum && fp.field->enumeration != nullptr && !fp.wrapper) {
      // The zero value of an enum is its value 0 (proto3 requires it first); without one, the first.
      const ProtoEnum& e = *fp.field->enumeration;
      const ProtoEnumValue* v = e.Find(0);
      zero.bits = static_cast<uint64_t>(static_cast<int64_t>(v != nullptr ? v->number : e.values.front().number));
    }
    return AppendScalar(fp, zero, column);
  }

  Status AppendScalar(const FieldPlan& fp, const Occurrence& v, ColumnVector& column) {
    using Op = FieldPlan::Op;
    switch (fp.op) {
      case Op::kBool: column.Append<uint8_t>(v.bits != 0 ? 1 : 0); return OkStatus();
      case Op::kInt32: {
        const int32_t x = fp.scalar == ProtoType::kSint32 ? varint::ZigZagDecode32(static_cast<uint32_t>(v.bits))
                                                          : static_cast<int32_t>(static_cast<uint32_t>(v.bits));
        column.Append<int32_t>(x);
        return OkStatus();
      }
      case Op::kInt64: {
        int64_t x;
        switch (fp.scalar) {
          case ProtoType::kSint32: x = varint::ZigZagDecode32(static_cast<uint32_t>(v.bits)); break;
          case ProtoType::kSint64: x = varint::ZigZagDecode(v.bits); break;
          case ProtoType::kInt32:
          case ProtoType::kSfixed32: x = static_cast<int32_t>(static_cast<uint32_t>(v.bits)); break;
          case ProtoType::kUint32:
          case ProtoType::kFixed32: x = static_cast<uint32_t>(v.bits); break;
          case ProtoType::kUint64:
          case ProtoType::kFixed64:
            if (v.bits > static_cast<uint64_t>(INT64_MAX)) {
              return Corruption("column '{}' at byte {}: {} {} does not fit a long", fp.where, v.at,
                                ProtoTypeName(fp.scalar), v.bits);
            }
            x = static_cast<int64_t>(v.bits);
            break;
          default: x = static_cast<int64_t>(v.bits);
        }
        column.Append<int64_t>(x);
        return OkStatus();
      }
      case Op::kFloat: {
        float f;
        const auto bits = static_cast<uint32_t>(v.bits);
        std::memcpy(&f, &bits, 4);
        column.Append<float>(f);
        return OkStatus();
      }
      case Op::kDouble: {
        double d;
        if (fp.scalar == ProtoType::kFloat) {
          float f;
          const auto bits = static_cast<uint32_t>(v.bits);
          std::memcpy(&f, &bits, 4);
          d = f;
        } else {
          std::memcpy(&d, &v.bits, 8);
        }
        column.Append<double>(d);
        return OkStatus();
      }
      case Op::kString:
        if (!ValidUtf8(v.bytes)) return Corruption("column '{}' at byte {}: the string is not valid UTF-8", fp.where, v.at);
        column.AppendString(v.bytes);
        return OkStatus();
      case Op::kBytes: column.AppendString(v.bytes); return OkStatus();
      case Op::kEnumName: {
        const auto number = static_cast<int32_t>(static_cast<int64_t>(v.bits));
        const ProtoEnumValue* value = fp.field->enumeration->Find(number);
        if (value == nullptr) {
          return Corruption("column '{}' at byte {}: {} has no value {}", fp.where, v.at,
                            fp.field->enumeration->full_name, number);
        }
        column.AppendString(value->name);
        return OkStatus();
      }
      case Op::kEnumNumber: {
        const auto number = static_cast<int32_t>(static_cast<int64_t>(v.bits));
        if (fp.column_is_long) {
          column.Append<int64_t>(number);
        } else {
          column.Append<int32_t>(number);
        }
        return OkStatus();
      }
      default: return Internal("protobuf column decoder: column '{}' has no scalar conversion", fp.where);
    }
  }
};

}  // namespace

Result<std::unique_ptr<ProtoColumnDecoder>> ProtoColumnDecoder::Make(const ProtoMessage& writer,
                                                                     std::vector<Field> fields) {
  std::unique_ptr<ProtoColumnDecoder> decoder(new ProtoColumnDecoder());
  decoder->fields_ = std::move(fields);
  FLOE_ASSIGN_OR_RETURN(decoder->root_, CompileMessage(writer, decoder->fields_, "", 0, &decoder->unmatched_));
  return decoder;
}

ProtoColumnDecoder::~ProtoColumnDecoder() = default;

Status ProtoColumnDecoder::DecodeRow(std::string_view message, formats::ColumnBatch& batch, size_t base) {
  Runner runner;
  root_->Begin();
  Status status = runner.Scan(*root_, message, base);
  if (status) status = runner.Emit(*root_, batch.columns);
  if (!status) {
    for (ColumnVector& column : batch.columns) avro::TruncateColumn(column, batch.num_rows);
    return status;
  }
  ++batch.num_rows;
  return OkStatus();
}

}  // namespace floe::protobuf

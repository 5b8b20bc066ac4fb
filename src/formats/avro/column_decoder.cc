#include "formats/avro/column_decoder.h"

#include <algorithm>
#include <cstring>

#include <fmt/format.h>

#include "base/bytes.h"
#include "formats/avro/binary_encoding.h"

namespace floe::avro {

using formats::ColumnVector;
using formats::Field;
using formats::TypeId;

// How one writer datum lands in one column: compiled once per (writer schema, reader fields),
// so decoding a datum is a walk over steps with no type checks left to make.
struct ColumnStep {
  enum class Op : uint8_t {
    kSkip,          // A field only the writer has: read and dropped.
    kNullSlot,      // The writer's null: a null slot (a required column refuses it).
    kIncompatible,  // A union branch the column cannot hold: an error when a datum takes it.
    kBoolean,
    kInt32,         // int into int32 or date.
    kInt64,         // int or long (writer_is_int) into a 64-bit column, times `multiply`, over `divide`.
    kFloat,         // int, long or float into float.
    kDouble,        // int, long, float or double into double.
    kBytes,         // string or bytes into string or binary.
    kFixedBytes,    // fixed into binary.
    kFixed,         // fixed into fixed (or uuid) of the same width.
    kEnum,          // enum symbol into string.
    kDecimal,       // bytes (size 0) or fixed (size > 0), big-endian two's complement, into decimal.
    kUuidString,    // a canonical UUID string into uuid.
    kRecord,
    kArray,
    kMap,
    kUnion,
  };
  Op op = Op::kSkip;
  const AvroNode* writer = nullptr;
  std::string where;  // The column's dotted name, for error messages.
  bool required = false;
  bool writer_is_int = false;
  bool writer_is_float = false;
  int64_t multiply = 1;
  int64_t divide = 1;
  int32_t precision = 0;
  int32_t size = 0;
  std::string incompatible;  // kIncompatible: why.
  // kRecord: one per writer field in writer order, with the reader child it fills (-1: kSkip);
  // kArray, kMap: the items' step; kUnion: one per branch.
  std::vector<ColumnStep> children;
  std::vector<int> target;
  std::vector<int> missing;  // kRecord: reader children the writer lacks, null in every row.
};

namespace {

using Op = ColumnStep::Op;

std::string WriterTypeName(const AvroNode& node) {
  std::string name(AvroTypeName(node.type));
  if (!node.logical_type.empty()) name += " (" + node.logical_type + ")";
  if (node.type == AvroType::kFixed) name += fmt::format(" of {} bytes", node.size);
  return name;
}

std::string ReaderTypeName(const formats::DataType& type) {
  if (type.id == TypeId::kDecimal) return fmt::format("decimal({}, {})", type.precision, type.scale);
  if (type.id == TypeId::kFixed) return fmt::format("fixed[{}]", type.width);
  return std::string(formats::TypeIdName(type.id));
}

int32_t IntAttribute(const AvroNode& node, const char* name, int32_t fallback) {
  auto it = node.extra.find(name);
  if (it == node.extra.end() || !it->is_number_integer()) return fallback;
  return it->get<int32_t>();
}

// Microseconds (or nanoseconds, for `nanos_column`) per unit of a writer's timestamp or time.
Status TimeScale(const AvroNode& writer, bool nanos_column, ColumnStep& step) {
  const std::string& lt = writer.logical_type;
  int64_t unit_nanos = 1000;  // A plain long is taken as Iceberg's own unit, microseconds.
  if (lt == "timestamp-millis" || lt == "local-timestamp-millis" || lt == "time-millis") unit_nanos = 1'000'000;
  if (lt == "timestamp-nanos" || lt == "local-timestamp-nanos") unit_nanos = 1;
  const int64_t column_nanos = nanos_column ? 1 : 1000;
  if (unit_nanos >= column_nanos) {
    step.multiply = unit_nanos / column_nanos;
  } else {
    step.divide = column_nanos / unit_nanos;
  }
  return OkStatus();
}

Result<ColumnStep> Compile(const AvroNode& writer, const Field& field, const std::string& where, int depth);

Result<ColumnStep> CompileRecord(const AvroNode& writer, const std::vector<Field>& fields, const std::string& where,
                                 int depth, std::vector<const AvroField*>* unmatched) {
  ColumnStep step;
  step.op = Op::kRecord;
  step.writer = &writer;
  step.where = where;
  std::vector<bool> filled(fields.size(), false);
  for (const AvroField& wf : writer.fields) {
    int index = -1;
    for (size_t i = 0; i < fields.size(); ++i) {
      if (fields[i].name == wf.name) index = static_cast<int>(i);
    }
    std::string path = where.empty() ? wf.name : where + "." + wf.name;
    if (index < 0) {
      ColumnStep skip;
      skip.op = Op::kSkip;
      skip.writer = wf.type;
      skip.where = path;
      step.children.push_back(std::move(skip));
      if (unmatched != nullptr) unmatched->push_back(&wf);
    } else {
      FLOE_ASSIGN_OR_RETURN(ColumnStep child, Compile(*wf.type, fields[static_cast<size_t>(index)], path, depth + 1));
      step.children.push_back(std::move(child));
      filled[static_cast<size_t>(index)] = true;
    }
    step.target.push_back(index);
  }
  for (size_t i = 0; i < fields.size(); ++i) {
    if (filled[i]) continue;
    if (!fields[i].nullable) {
      return InvalidArgument("column '{}' is required but the writer's schema has no field '{}'",
                             where.empty() ? fields[i].name : where + "." + fields[i].name, fields[i].name);
    }
    step.missing.push_back(static_cast<int>(i));
  }
  return step;
}

Result<ColumnStep> Compile(const AvroNode& writer, const Field& field, const std::string& where, int depth) {
  if (depth > AvroColumnDecoder::kMaxDepth) {
    return InvalidArgument("column '{}': nested deeper than {}", where, AvroColumnDecoder::kMaxDepth);
  }
  ColumnStep step;
  step.writer = &writer;
  step.where = where;
  step.required = !field.nullable;
  const formats::DataType& type = field.type;
  const AvroType w = writer.type;
  const std::string& lt = writer.logical_type;
  auto mismatch = [&] {
    return InvalidArgument("column '{}': the writer's {} cannot be read as {}", where, WriterTypeName(writer),
                           ReaderTypeName(type));
  };
  if (w == AvroType::kNull) {
    step.op = Op::kNullSlot;
    return step;
  }
  if (w == AvroType::kUnion) {
    step.op = Op::kUnion;
    std::optional<Error> first_error;
    bool any = false;
    for (const AvroNode* branch : writer.branches) {
      auto compiled = Compile(*branch, field, where, depth + 1);
      if (compiled) {
        any = any || branch->type != AvroType::kNull;
        step.children.push_back(std::move(*compiled));
        continue;
      }
      if (!first_error) first_error = compiled.error();
      ColumnStep bad;
      bad.op = Op::kIncompatible;
      bad.where = where;
      bad.incompatible = compiled.error().message();
      step.children.push_back(std::move(bad));
    }
    if (!any && first_error) return std::unexpected(*first_error);
    return step;
  }
  const bool is_int = w == AvroType::kInt, is_long = w == AvroType::kLong;
  switch (type.id) {
    case TypeId::kBoolean:
      if (w != AvroType::kBoolean) return mismatch();
      step.op = Op::kBoolean;
      return step;
    case TypeId::kInt32:
      if (!is_int) return mismatch();
      step.op = Op::kInt32;
      return step;
    case TypeId::kDate:
      if (!is_int || !(lt.empty() || lt == "date")) return mismatch();
      step.op = Op::kInt32;
      return step;
    case TypeId::kInt64:
      if (!is_int && !is_long) return mismatch();
      step.op = Op::kInt64;
      step.writer_is_int = is_int;
      return step;
    case TypeId::kTime:
      if (!(is_int && lt == "time-millis") && !(is_long && (lt.empty() || lt == "time-micros"))) return mismatch();
      step.op = Op::kInt64;
      step.writer_is_int = is_int;
      FLOE_RETURN_IF_ERROR(TimeScale(writer, false, step));
      return step;
    case TypeId::kTimestamp:
    case TypeId::kTimestampTz:
    case TypeId::kTimestampNs:
    case TypeId::kTimestampTzNs:
      if (!is_long || !(lt.empty() || lt.starts_with("timestamp-") || lt.starts_with("local-timestamp-"))) {
        return mismatch();
      }
      step.op = Op::kInt64;
      FLOE_RETURN_IF_ERROR(
          TimeScale(writer, type.id == TypeId::kTimestampNs || type.id == TypeId::kTimestampTzNs, step));
      return step;
    case TypeId::kFloat:
      if (!is_int && !is_long && w != AvroType::kFloat) return mismatch();
      step.op = Op::kFloat;
      step.writer_is_int = is_int;
      step.writer_is_float = w == AvroType::kFloat;
      return step;
    case TypeId::kDouble:
      if (!is_int && !is_long && w != AvroType::kFloat && w != AvroType::kDouble) return mismatch();
      step.op = Op::kDouble;
      step.writer_is_int = is_int;
      step.writer_is_float = w == AvroType::kFloat;
      step.size = w == AvroType::kDouble ? 8 : 0;
      return step;
    case TypeId::kString:
    case TypeId::kBinary:
      if (w == AvroType::kString || w == AvroType::kBytes) {
        step.op = Op::kBytes;
      } else if (w == AvroType::kEnum && type.id == TypeId::kString) {
        step.op = Op::kEnum;
      } else if (w == AvroType::kFixed && type.id == TypeId::kBinary) {
        step.op = Op::kFixedBytes;
        step.size = writer.size;
      } else {
        return mismatch();
      }
      return step;
    case TypeId::kFixed:
      if (w != AvroType::kFixed || writer.size != type.width) return mismatch();
      step.op = Op::kFixed;
      step.size = writer.size;
      return step;
    case TypeId::kUuid:
      if (w == AvroType::kString) {
        step.op = Op::kUuidString;
      } else if (w == AvroType::kFixed && writer.size == 16) {
        step.op = Op::kFixed;
        step.size = 16;
      } else {
        return mismatch();
      }
      return step;
    case TypeId::kDecimal: {
      if ((w != AvroType::kBytes && w != AvroType::kFixed) || lt != "decimal") return mismatch();
      // Avro resolves decimals only when scale and precision agree; a wider column holds any
      // narrower writer's values unchanged, so only the scale must match.
      const int32_t scale = IntAttribute(writer, "scale", 0), precision = IntAttribute(writer, "precision", 0);
      if (scale != type.scale || precision > type.precision || precision <= 0) return mismatch();
      step.op = Op::kDecimal;
      step.size = w == AvroType::kFixed ? writer.size : 0;
      step.precision = type.precision;
      return step;
    }
    case TypeId::kStruct:
      if (w != AvroType::kRecord) return mismatch();
      {
        FLOE_ASSIGN_OR_RETURN(ColumnStep record, CompileRecord(writer, type.children, where, depth, nullptr));
        record.required = step.required;
        return record;
      }
    case TypeId::kList: {
      if (w != AvroType::kArray) return mismatch();
      step.op = Op::kArray;
      FLOE_ASSIGN_OR_RETURN(ColumnStep items, Compile(*writer.items, type.children[0], where + ".element", depth + 1));
      step.children.push_back(std::move(items));
      return step;
    }
    case TypeId::kMap: {
      if (w != AvroType::kMap) return mismatch();
      if (type.children[0].type.id != TypeId::kString) {
        return InvalidArgument("column '{}': an Avro map has string keys, the column's are {}", where,
                               ReaderTypeName(type.children[0].type));
      }
      step.op = Op::kMap;
      FLOE_ASSIGN_OR_RETURN(ColumnStep values, Compile(*writer.items, type.children[1], where + ".value", depth + 1));
      step.children.push_back(std::move(values));
      return step;
    }
  }
  return mismatch();
}

// Reads one datum's steps into columns. Errors name the column and the byte offset in the datum.
class StepRunner {
 public:
  StepRunner(std::string_view datum)
      : begin_(reinterpret_cast<const uint8_t*>(datum.data())), p_(begin_), end_(begin_ + datum.size()) {}

  size_t position() const { return static_cast<size_t>(p_ - begin_); }
  size_t left() const { return static_cast<size_t>(end_ - p_); }

  Status RunRecordInto(const ColumnStep& step, std::vector<ColumnVector>& columns, int depth) {
    for (size_t i = 0; i < step.children.size(); ++i) {
      const int target = step.target[i];
      FLOE_RETURN_IF_ERROR(Run(step.children[i], target < 0 ? nullptr : &columns[static_cast<size_t>(target)], depth + 1));
    }
    for (int m : step.missing) columns[static_cast<size_t>(m)].AppendNull();
    return OkStatus();
  }

  Status Run(const ColumnStep& step, ColumnVector* column, int depth) {
    if (depth > AvroColumnDecoder::kMaxDepth) {
      return Corruption("column '{}' at byte {}: nested deeper than {}", step.where, position(), AvroColumnDecoder::kMaxDepth);
    }
    switch (step.op) {
      case Op::kSkip: {
        ByteReader reader(p_, left());
        auto skipped = DecodeDatum(*step.writer, reader);
        if (!skipped) return Corruption("field '{}' at byte {}: {}", step.where, position(), skipped.error().message());
        p_ += reader.position();
        return OkStatus();
      }
      case Op::kNullSlot:
        if (step.required) return Corruption("column '{}' at byte {}: null in a required column", step.where, position());
        column->AppendNull();
        return OkStatus();
      case Op::kIncompatible:
        return Corruption("column '{}' at byte {}: {}", step.where, position(), step.incompatible);
      case Op::kBoolean: {
        if (p_ == end_) return Truncated(step, 1);
        uint8_t b = *p_;
        if (b > 1) return Corruption("column '{}' at byte {}: boolean byte {}", step.where, position(), b);
        ++p_;
        column->Append<uint8_t>(b);
        return OkStatus();
      }
      case Op::kInt32: {
        FLOE_ASSIGN_OR_RETURN(int64_t v, ReadInt(step));
        column->Append<int32_t>(static_cast<int32_t>(v));
        return OkStatus();
      }
      case Op::kInt64: {
        int64_t v;
        if (step.writer_is_int) {
          FLOE_ASSIGN_OR_RETURN(v, ReadInt(step));
        } else {
          FLOE_ASSIGN_OR_RETURN(v, ReadLong(step));
        }
        if (int64_t scaled; step.multiply != 1) {
          if (__builtin_mul_overflow(v, step.multiply, &scaled)) {
            return Corruption("column '{}' at byte {}: {} overflows the column's unit", step.where, position(), v);
          }
          v = scaled;
        }
        if (step.divide != 1) v = v / step.divide - (v % step.divide < 0 ? 1 : 0);  // Floor: before 1970 too.
        column->Append<int64_t>(v);
        return OkStatus();
      }
      case Op::kFloat:
      case Op::kDouble: {
        double v;
        if (step.writer_is_float) {
          FLOE_ASSIGN_OR_RETURN(float f, ReadLittle<float>(step));
          v = f;
        } else if (step.size == 8) {
          FLOE_ASSIGN_OR_RETURN(v, ReadLittle<double>(step));
        } else if (step.writer_is_int) {
          FLOE_ASSIGN_OR_RETURN(int64_t i, ReadInt(step));
          v = static_cast<double>(i);
        } else {
          FLOE_ASSIGN_OR_RETURN(int64_t i, ReadLong(step));
          v = static_cast<double>(i);
        }
        if (step.op == Op::kFloat) {
          column->Append<float>(static_cast<float>(v));
        } else {
          column->Append<double>(v);
        }
        return OkStatus();
      }
      case Op::kBytes: {
        FLOE_ASSIGN_OR_RETURN(std::string_view b, ReadLengthPrefixed(step));
        column->AppendString(b);
        return OkStatus();
      }
      case Op::kFixedBytes: {
        FLOE_ASSIGN_OR_RETURN(std::string_view b, ReadExactly(step, static_cast<size_t>(step.size)));
        column->AppendString(b);
        return OkStatus();
      }
      case Op::kFixed: {
        FLOE_ASSIGN_OR_RETURN(std::string_view b, ReadExactly(step, static_cast<size_t>(step.size)));
        column->MarkAndAppendFixed(b);
        return OkStatus();
      }
      case Op::kEnum: {
        const size_t at = position();
        FLOE_ASSIGN_OR_RETURN(int64_t index, ReadInt(step));
        if (index < 0 || static_cast<size_t>(index) >= step.writer->symbols.size()) {
          return Corruption("column '{}' at byte {}: enum ordinal {} of {} symbols", step.where, at, index,
                            step.writer->symbols.size());
        }
        column->AppendString(step.writer->symbols[static_cast<size_t>(index)]);
        return OkStatus();
      }
      case Op::kDecimal: return RunDecimal(step, column);
      case Op::kUuidString: {
        const size_t at = position();
        FLOE_ASSIGN_OR_RETURN(std::string_view text, ReadLengthPrefixed(step));
        char bytes[16];
        if (!ParseUuid(text, bytes)) {
          return Corruption("column '{}' at byte {}: '{}' is not a UUID", step.where, at, text.substr(0, 64));
        }
        column->MarkAndAppendFixed(std::string_view(bytes, 16));
        return OkStatus();
      }
      case Op::kRecord:
        FLOE_RETURN_IF_ERROR(RunRecordInto(step, column->children, depth));
        column->AppendStructSlot(true);
        return OkStatus();
      case Op::kArray:
      case Op::kMap: return RunBlocks(step, column, depth);
      case Op::kUnion: {
        const size_t at = position();
        FLOE_ASSIGN_OR_RETURN(int64_t index, ReadLong(step));
        if (index < 0 || static_cast<size_t>(index) >= step.children.size()) {
          return Corruption("column '{}' at byte {}: union branch {} of {}", step.where, at, index, step.children.size());
        }
        return Run(step.children[static_cast<size_t>(index)], column, depth + 1);
      }
    }
    return Internal("avro column decoder: unhandled step");
  }

 private:
  std::unexpected<Error> Truncated(const ColumnStep& step, size_t need) const {
    return Corruption("column '{}' at byte {}: truncated ({} bytes needed, {} left)", step.where, position(), need, left());
  }

  Result<int64_t> ReadLong(const ColumnStep& step) {
    uint64_t result = 0;
    for (int shift = 0; shift < 64; shift += 7) {
      if (p_ == end_) return Corruption("column '{}' at byte {}: truncated varint", step.where, position());
      const uint8_t byte = *p_++;
      result |= static_cast<uint64_t>(byte & 0x7f) << shift;
      if ((byte & 0x80) == 0) return static_cast<int64_t>((result >> 1) ^ (~(result & 1) + 1));
    }
    return Corruption("column '{}' at byte {}: varint longer than 10 bytes", step.where, position());
  }

  Result<int64_t> ReadInt(const ColumnStep& step) {
    const size_t at = position();
    FLOE_ASSIGN_OR_RETURN(int64_t v, ReadLong(step));
    if (v < INT32_MIN || v > INT32_MAX) return Corruption("column '{}' at byte {}: int {} out of range", step.where, at, v);
    return v;
  }

  template <typename T>
  Result<T> ReadLittle(const ColumnStep& step) {
    if (left() < sizeof(T)) return Truncated(step, sizeof(T));
    T v;
    std::memcpy(&v, p_, sizeof(T));  // Avro floats are little-endian, as is every host we build for.
    p_ += sizeof(T);
    return v;
  }

  Result<std::string_view> ReadExactly(const ColumnStep& step, size_t n) {
    if (left() < n) return Truncated(step, n);
    std::string_view out(reinterpret_cast<const char*>(p_), n);
    p_ += n;
    return out;
  }

  Result<std::string_view> ReadLengthPrefixed(const ColumnStep& step) {
    const size_t at = position();
    FLOE_ASSIGN_OR_RETURN(int64_t n, ReadLong(step));
    if (n < 0 || static_cast<uint64_t>(n) > left()) {
      return Corruption("column '{}' at byte {}: length {} with {} bytes left", step.where, at, n, left());
    }
    return ReadExactly(step, static_cast<size_t>(n));
  }

  Status RunDecimal(const ColumnStep& step, ColumnVector* column) {
    const size_t at = position();
    std::string_view b;
    if (step.size > 0) {
      FLOE_ASSIGN_OR_RETURN(b, ReadExactly(step, static_cast<size_t>(step.size)));
    } else {
      FLOE_ASSIGN_OR_RETURN(b, ReadLengthPrefixed(step));
    }
    // Big-endian two's complement; bytes past 16 may only repeat the sign.
    __int128 v = 0;
    if (!b.empty()) {
      const bool negative = static_cast<uint8_t>(b[0]) & 0x80;
      size_t skip = 0;
      while (b.size() - skip > 16) {
        if (static_cast<uint8_t>(b[skip]) != (negative ? 0xff : 0x00)) {
          return Corruption("column '{}' at byte {}: decimal of {} bytes overflows 128 bits", step.where, at, b.size());
        }
        ++skip;
      }
      v = negative ? -1 : 0;
      for (size_t i = skip; i < b.size(); ++i) v = static_cast<__int128>((static_cast<unsigned __int128>(v) << 8) | static_cast<uint8_t>(b[i]));
    }
    __int128 limit = 1;
    for (int32_t i = 0; i < step.precision; ++i) limit *= 10;
    if (v >= limit || v <= -limit) {
      return Corruption("column '{}' at byte {}: decimal has more than {} digits", step.where, at, step.precision);
    }
    column->Append<__int128>(v);
    return OkStatus();
  }

  static int HexValue(char c) {
    if (c >= '0' && c <= '9') return c - '0';
    if (c >= 'a' && c <= 'f') return c - 'a' + 10;
    if (c >= 'A' && c <= 'F') return c - 'A' + 10;
    return -1;
  }

  // 8-4-4-4-12 hex digits (RFC 4122's text form) into 16 bytes.
  static bool ParseUuid(std::string_view text, char* out) {
    if (text.size() != 36) return false;
    size_t n = 0;
    for (size_t i = 0; i < 36;) {
      if (i == 8 || i == 13 || i == 18 || i == 23) {
        if (text[i] != '-') return false;
        ++i;
        continue;
      }
      int hi = HexValue(text[i]), lo = HexValue(text[i + 1]);
      if (hi < 0 || lo < 0) return false;
      out[n++] = static_cast<char>((hi << 4) | lo);
      i += 2;
    }
    return n == 16;
  }

  Status RunBlocks(const ColumnStep& step, ColumnVector* column, int depth) {
    const bool is_map = step.op == Op::kMap;
    const ColumnStep& items = step.children[0];
    ColumnVector& values = column->children[is_map ? 1 : 0];
    const size_t item_min = MinEncodedSize(*step.writer->items) + (is_map ? 1 : 0);
    uint64_t total = 0;
    while (true) {
      const size_t at = position();
      FLOE_ASSIGN_OR_RETURN(int64_t count, ReadLong(step));
      if (count == 0) break;
      if (count < 0) {
        if (count == INT64_MIN) return Corruption("column '{}' at byte {}: block count out of range", step.where, at);
        count = -count;
        FLOE_ASSIGN_OR_RETURN(int64_t block_bytes, ReadLong(step));
        if (block_bytes < 0 || static_cast<uint64_t>(block_bytes) > left()) {
          return Corruption("column '{}' at byte {}: block of {} bytes with {} left", step.where, at, block_bytes, left());
        }
      }
      const uint64_t n = static_cast<uint64_t>(count);
      total += n;
      if (item_min > 0 ? n > left() / item_min : total > kMaxZeroSizeItems) {
        return Corruption("column '{}' at byte {}: {} items cannot fit in the {} bytes left", step.where, at, n, left());
      }
      for (uint64_t k = 0; k < n; ++k) {
        if (is_map) {
          FLOE_ASSIGN_OR_RETURN(std::string_view key, ReadLengthPrefixed(step));
          column->children[0].AppendString(key);
        }
        FLOE_RETURN_IF_ERROR(Run(items, &values, depth + 1));
      }
    }
    if (total > static_cast<uint64_t>(INT32_MAX - values.length)) {
      return Corruption("column '{}': more elements than a column holds", step.where);
    }
    column->AppendListEnd(true);
    return OkStatus();
  }

  const uint8_t* begin_;
  const uint8_t* p_;
  const uint8_t* end_;
};

}  // namespace

Result<std::unique_ptr<AvroColumnDecoder>> AvroColumnDecoder::Make(const AvroNode& writer, std::vector<Field> fields) {
  if (writer.type != AvroType::kRecord) {
    return InvalidArgument("the writer's schema is {}, not a record: rows need named fields", WriterTypeName(writer));
  }
  std::unique_ptr<AvroColumnDecoder> decoder(new AvroColumnDecoder());
  decoder->fields_ = std::move(fields);
  FLOE_ASSIGN_OR_RETURN(ColumnStep root, CompileRecord(writer, decoder->fields_, "", 0, &decoder->unmatched_));
  decoder->root_ = std::make_unique<ColumnStep>(std::move(root));
  return decoder;
}

AvroColumnDecoder::~AvroColumnDecoder() = default;

Status AvroColumnDecoder::DecodeRow(std::string_view datum, formats::ColumnBatch& batch) const {
  StepRunner runner(datum);
  Status status = runner.RunRecordInto(*root_, batch.columns, 0);
  if (status && runner.left() != 0) {
    status = Corruption("{} bytes left over after the datum's {}", runner.left(), runner.position());
  }
  if (!status) {
    for (ColumnVector& column : batch.columns) TruncateColumn(column, batch.num_rows);
    return status;
  }
  ++batch.num_rows;
  return OkStatus();
}

void ReserveRows(formats::ColumnBatch& batch, int64_t rows, size_t bytes) {
  size_t string_columns = 0;
  for (const ColumnVector& column : batch.columns) {
    if (column.type().id == TypeId::kString || column.type().id == TypeId::kBinary) ++string_columns;
  }
  for (ColumnVector& column : batch.columns) {
    const formats::DataType& type = column.type();
    const size_t total = static_cast<size_t>(column.length + rows);
    if (type.HasOffsets()) {
      column.offsets.reserve(total + 1);
      if (type.id == TypeId::kString || type.id == TypeId::kBinary) {
        column.values.Reserve(column.values.size() + bytes / std::max<size_t>(1, string_columns));
      }
    } else if (type.FixedWidth() > 0) {
      column.values.Reserve(total * static_cast<size_t>(type.FixedWidth()));
    }
  }
}

void TruncateColumn(ColumnVector& column, int64_t length) {
  if (!column.validity.empty() && column.validity.size() > static_cast<size_t>(length)) {
    column.validity.resize(static_cast<size_t>(length));
  }
  const formats::DataType& type = column.type();
  if (type.HasOffsets()) {
    if (column.offsets.size() > static_cast<size_t>(length) + 1) column.offsets.resize(static_cast<size_t>(length) + 1);
    const int64_t end = column.offsets.empty() ? 0 : column.offsets.back();
    if (type.id == TypeId::kString || type.id == TypeId::kBinary) {
      column.values.Resize(static_cast<size_t>(end));
    } else {
      for (ColumnVector& child : column.children) TruncateColumn(child, end);
    }
  } else if (type.id == TypeId::kStruct) {
    for (ColumnVector& child : column.children) TruncateColumn(child, length);
  } else if (column.values.size() > static_cast<size_t>(length) * static_cast<size_t>(type.FixedWidth())) {
    column.values.Resize(static_cast<size_t>(length) * static_cast<size_t>(type.FixedWidth()));
  }
  column.length = std::min(column.length, length);
}

}  // namespace floe::avro

#include "formats/column_batch.h"

#include <cstring>

namespace floe::formats {

int32_t DataType::FixedWidth() const {
  switch (id) {
    case TypeId::kBoolean: return 1;
    case TypeId::kInt32:
    case TypeId::kFloat:
    case TypeId::kDate: return 4;
    case TypeId::kInt64:
    case TypeId::kDouble:
    case TypeId::kTime:
    case TypeId::kTimestamp:
    case TypeId::kTimestampTz:
    case TypeId::kTimestampNs:
    case TypeId::kTimestampTzNs: return 8;
    case TypeId::kDecimal:
    case TypeId::kUuid: return 16;
    case TypeId::kFixed: return width;
    default: return 0;
  }
}

DataType Primitive(TypeId id) {
  DataType t;
  t.id = id;
  return t;
}

DataType DecimalType(int32_t precision, int32_t scale) {
  DataType t = Primitive(TypeId::kDecimal);
  t.precision = precision;
  t.scale = scale;
  return t;
}

DataType FixedType(int32_t width) {
  DataType t = Primitive(TypeId::kFixed);
  t.width = width;
  return t;
}

DataType StructType(std::vector<Field> fields) {
  DataType t = Primitive(TypeId::kStruct);
  t.children = std::move(fields);
  return t;
}

DataType ListType(Field element) {
  DataType t = Primitive(TypeId::kList);
  t.children.push_back(std::move(element));
  return t;
}

DataType MapType(Field key, Field value) {
  DataType t = Primitive(TypeId::kMap);
  t.children.push_back(std::move(key));
  t.children.push_back(std::move(value));
  return t;
}

int64_t ColumnVector::NullCount() const {
  if (validity.empty()) return 0;
  int64_t n = 0;
  for (uint8_t v : validity) n += v == 0;
  return n;
}

void ColumnVector::AppendNull() {
  if (validity.empty()) validity.assign(static_cast<size_t>(length), 1);
  validity.push_back(0);
  if (type_.HasOffsets()) {
    if (offsets.empty()) offsets.push_back(0);
    offsets.push_back(offsets.back());
  } else if (type_.id == TypeId::kStruct) {
    for (ColumnVector& c : children) c.AppendNull();
  } else {
    size_t w = static_cast<size_t>(type_.FixedWidth());
    size_t at = values.size();
    values.Resize(at + w);
    std::memset(values.data() + at, 0, w);
  }
  ++length;
}

void ColumnVector::AppendListEnd(bool valid) {
  if (!valid) {
    AppendNull();
    return;
  }
  MarkValid();
  if (offsets.empty()) offsets.push_back(0);
  offsets.push_back(static_cast<int32_t>(children[0].length));
  ++length;
}

void ColumnVector::AppendStructSlot(bool valid) {
  if (!valid) {
    // The caller did not append to the children for a null struct; AppendNull does.
    AppendNull();
    return;
  }
  MarkValid();
  ++length;
}

bool SameSlots(const ColumnVector& a, const ColumnVector& b) {
  if (a.length != b.length || a.offsets != b.offsets || a.values.size() != b.values.size() ||
      a.children.size() != b.children.size()) {
    return false;
  }
  for (int64_t i = 0; i < a.length; ++i) {
    if (a.IsValid(i) != b.IsValid(i)) return false;
  }
  if (a.values.size() != 0 && std::memcmp(a.values.data(), b.values.data(), a.values.size()) != 0) return false;
  for (size_t c = 0; c < a.children.size(); ++c) {
    if (!SameSlots(a.children[c], b.children[c])) return false;
  }
  return true;
}

ColumnBatch MakeEmptyBatch(const std::vector<Field>& fields) {
  ColumnBatch batch;
  batch.fields = fields;
  for (const Field& f : fields) batch.columns.emplace_back(f.type);
  return batch;
}

std::string_view TypeIdName(TypeId id) {
  switch (id) {
    case TypeId::kBoolean: return "boolean";
    case TypeId::kInt32: return "int";
    case TypeId::kInt64: return "long";
    case TypeId::kFloat: return "float";
    case TypeId::kDouble: return "double";
    case TypeId::kDecimal: return "decimal";
    case TypeId::kDate: return "date";
    case TypeId::kTime: return "time";
    case TypeId::kTimestamp: return "timestamp";
    case TypeId::kTimestampTz: return "timestamptz";
    case TypeId::kTimestampNs: return "timestamp_ns";
    case TypeId::kTimestampTzNs: return "timestamptz_ns";
    case TypeId::kString: return "string";
    case TypeId::kBinary: return "binary";
    case TypeId::kFixed: return "fixed";
    case TypeId::kUuid: return "uuid";
    case TypeId::kStruct: return "struct";
    case TypeId::kList: return "list";
    case TypeId::kMap: return "map";
  }
  return "unknown";
}

}  // namespace floe::formats

namespace floe::formats {

ColumnVector SliceVector(const ColumnVector& source, int64_t offset, int64_t length) {
  ColumnVector out(source.type());
  out.length = length;
  auto first = static_cast<size_t>(offset);
  auto count = static_cast<size_t>(length);
  if (!source.validity.empty()) out.validity.assign(source.validity.begin() + first, source.validity.begin() + first + count);
  const DataType& type = source.type();
  if (type.HasOffsets()) {
    int32_t base = source.offsets[first];
    int32_t end = source.offsets[first + count];
    out.offsets.resize(count + 1);
    for (size_t i = 0; i <= count; ++i) out.offsets[i] = source.offsets[first + i] - base;
    if (type.id == TypeId::kString || type.id == TypeId::kBinary) {
      out.values.Append(source.values.data() + base, static_cast<size_t>(end - base));
      if (source.HasDictionary()) {
        out.dictionary = source.dictionary;
        out.dictionary_codes.assign(source.dictionary_codes.begin() + first, source.dictionary_codes.begin() + first + count);
      }
    } else {
      for (size_t c = 0; c < source.children.size(); ++c) out.children[c] = SliceVector(source.children[c], base, end - base);
    }
  } else if (type.id == TypeId::kStruct) {
    for (size_t c = 0; c < source.children.size(); ++c) out.children[c] = SliceVector(source.children[c], offset, length);
  } else {
    auto width = static_cast<size_t>(type.FixedWidth());
    out.values.Append(source.values.data() + first * width, count * width);
  }
  return out;
}

ColumnBatch SliceBatch(const ColumnBatch& source, int64_t offset, int64_t length) {
  ColumnBatch out;
  out.fields = source.fields;
  out.num_rows = length;
  out.columns.reserve(source.columns.size());
  for (const ColumnVector& c : source.columns) out.columns.push_back(SliceVector(c, offset, length));
  return out;
}

int64_t VectorBytes(const ColumnVector& v) {
  auto bytes = static_cast<int64_t>(v.values.size() + v.validity.size() + v.offsets.size() * sizeof(int32_t));
  for (const ColumnVector& child : v.children) bytes += VectorBytes(child);
  return bytes;
}

int64_t BatchBytes(const ColumnBatch& batch) {
  int64_t bytes = 0;
  for (const ColumnVector& column : batch.columns) bytes += VectorBytes(column);
  return bytes;
}

ColumnVector GatherRows(const ColumnVector& source, const uint32_t* rows, int64_t count) {
  ColumnVector out(source.type());
  out.length = count;
  const auto n = static_cast<size_t>(count);
  if (!source.validity.empty()) {
    out.validity.resize(n);
    for (size_t i = 0; i < n; ++i) out.validity[i] = source.validity[rows[i]];
  }
  const DataType& type = source.type();
  if (type.id == TypeId::kString || type.id == TypeId::kBinary) {
    const int32_t* from = source.offsets.data();
    out.offsets.resize(n + 1);
    size_t bytes = 0;
    for (size_t i = 0; i < n; ++i) {
      bytes += static_cast<size_t>(from[rows[i] + 1] - from[rows[i]]);
      out.offsets[i + 1] = static_cast<int32_t>(bytes);
    }
    out.values.Resize(bytes);
    // All-empty strings leave both buffers unallocated: nothing to copy (memcpy wants pointers).
    for (size_t i = 0; bytes > 0 && i < n; ++i) {
      const int32_t b = from[rows[i]];
      CopyStringBytes(out.values.data() + out.offsets[i], source.values.data() + b, static_cast<size_t>(from[rows[i] + 1] - b));
    }
    if (source.HasDictionary()) {
      out.dictionary = source.dictionary;
      out.dictionary_codes.resize(n);
      for (size_t i = 0; i < n; ++i) out.dictionary_codes[i] = source.dictionary_codes[rows[i]];
    }
  } else if (type.id == TypeId::kList || type.id == TypeId::kMap) {
    // The elements of the chosen rows, in order, gathered from each child.
    std::vector<uint32_t> elements;
    out.offsets.resize(n + 1);
    for (size_t i = 0; i < n; ++i) {
      for (int32_t e = source.offsets[rows[i]]; e < source.offsets[rows[i] + 1]; ++e) elements.push_back(static_cast<uint32_t>(e));
      out.offsets[i + 1] = static_cast<int32_t>(elements.size());
    }
    for (size_t c = 0; c < source.children.size(); ++c) {
      out.children[c] = GatherRows(source.children[c], elements.data(), static_cast<int64_t>(elements.size()));
    }
  } else if (type.id == TypeId::kStruct) {
    for (size_t c = 0; c < source.children.size(); ++c) out.children[c] = GatherRows(source.children[c], rows, count);
  } else {
    const auto width = static_cast<size_t>(type.FixedWidth());
    out.values.Resize(n * width);
    uint8_t* to = out.values.data();
    const uint8_t* from = source.values.data();
    switch (width) {
      case 16:  // Decimals: a constant width, so each copy is two moves rather than a memcpy call.
        for (size_t i = 0; i < n; ++i) std::memcpy(to + i * 16, from + size_t{rows[i]} * 16, 16);
        break;
      case 8:
        for (size_t i = 0; i < n; ++i) std::memcpy(to + i * 8, from + size_t{rows[i]} * 8, 8);
        break;
      case 4:
        for (size_t i = 0; i < n; ++i) std::memcpy(to + i * 4, from + size_t{rows[i]} * 4, 4);
        break;
      case 1:
        for (size_t i = 0; i < n; ++i) to[i] = from[rows[i]];
        break;
      default:
        for (size_t i = 0; i < n; ++i) std::memcpy(to + i * width, from + size_t{rows[i]} * width, width);
    }
  }
  return out;
}

}  // namespace floe::formats

// ColumnBatch: rows held column by column in contiguous typed buffers, the currency between
// the Parquet codec, the JSON event decoder, the stream job and the SQL engine.
//
// A ColumnVector is one column of `length` slots: `validity` (one byte per slot, 1 = present;
// empty means every slot is present), `values` (fixed-width slots back to back, or the bytes of
// every string), `offsets` (length + 1 entries for strings, binary, lists and maps) and
// `children` (struct fields, a list's element, a map's keys and values). There are no per-value
// objects. The value of a null slot is unspecified (readers write zeros).
// A batch owns its vectors; it is not thread-safe, but an unchanged batch may be read by any
// number of threads.
#pragma once

#include <cstdint>
#include <cstring>
#include <memory>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace floe::formats {

// The column types: Iceberg's types, which every producer and consumer of a batch shares.
enum class TypeId : uint8_t {
  kBoolean,      // 1 byte per slot (0 or 1)
  kInt32,        // int32_t
  kInt64,        // int64_t
  kFloat,        // float
  kDouble,       // double
  kDecimal,      // __int128 unscaled value, with precision and scale on the type
  kDate,         // int32_t days since 1970-01-01
  kTime,         // int64_t microseconds since midnight
  kTimestamp,    // int64_t microseconds since the epoch, no time zone
  kTimestampTz,  // int64_t microseconds since the epoch, UTC
  kTimestampNs,    // int64_t nanoseconds since the epoch, no time zone (Iceberg v3 timestamp_ns)
  kTimestampTzNs,  // int64_t nanoseconds since the epoch, UTC (timestamptz_ns)
  kString,       // offsets + UTF-8 bytes
  kBinary,       // offsets + bytes
  kFixed,        // `width` bytes per slot
  kUuid,         // 16 bytes per slot, big-endian (RFC 4122 byte order)
  kStruct,       // children, one per field, each `length` slots
  kList,         // offsets into children[0] (the elements)
  kMap,          // offsets into children[0] (keys) and children[1] (values)
};

struct Field;

struct DataType {
  TypeId id = TypeId::kInt64;
  int32_t precision = 0;  // kDecimal
  int32_t scale = 0;      // kDecimal
  int32_t width = 0;      // kFixed: bytes per value
  // kStruct: the fields; kList: one field (the element); kMap: key then value.
  std::vector<Field> children;

  bool IsNested() const { return id == TypeId::kStruct || id == TypeId::kList || id == TypeId::kMap; }
  bool HasOffsets() const {
    return id == TypeId::kString || id == TypeId::kBinary || id == TypeId::kList || id == TypeId::kMap;
  }
  // Bytes per slot in `values` for fixed-width types, 0 for the others.
  int32_t FixedWidth() const;
};

struct Field {
  std::string name;
  int32_t id = -1;  // The Iceberg field id, -1 when unknown.
  bool nullable = true;
  DataType type;
};

DataType Primitive(TypeId id);
DataType DecimalType(int32_t precision, int32_t scale);
DataType FixedType(int32_t width);
DataType StructType(std::vector<Field> fields);
DataType ListType(Field element);
DataType MapType(Field key, Field value);

// A contiguous, growable byte buffer that does not initialise what it grows into.
class Buffer {
 public:
  Buffer() = default;
  // A moved-from buffer is empty (no bytes, no capacity).
  Buffer(Buffer&& other) noexcept
      : data_(std::move(other.data_)), size_(std::exchange(other.size_, 0)), capacity_(std::exchange(other.capacity_, 0)) {}
  Buffer& operator=(Buffer&& other) noexcept {
    data_ = std::move(other.data_);
    size_ = std::exchange(other.size_, 0);
    capacity_ = std::exchange(other.capacity_, 0);
    return *this;
  }
  Buffer(const Buffer& other) { Append(other.data(), other.size()); }
  Buffer& operator=(const Buffer& other) {
    if (this != &other) {
      size_ = 0;
      Append(other.data(), other.size());
    }
    return *this;
  }

  uint8_t* data() { return data_.get(); }
  const uint8_t* data() const { return data_.get(); }
  size_t size() const { return size_; }
  size_t capacity() const { return capacity_; }
  template <typename T>
  T* As() { return reinterpret_cast<T*>(data_.get()); }
  template <typename T>
  const T* As() const { return reinterpret_cast<const T*>(data_.get()); }

  void Reserve(size_t n) {
    if (n <= capacity_) return;
    size_t cap = capacity_ < 64 ? 64 : capacity_;
    while (cap < n) cap += cap / 2 + 64;
    std::unique_ptr<uint8_t[]> grown(new uint8_t[cap]);
    if (size_ > 0) std::memcpy(grown.get(), data_.get(), size_);
    data_ = std::move(grown);
    capacity_ = cap;
  }
  // Grows or shrinks to n bytes; new bytes are uninitialised.
  void Resize(size_t n) {
    Reserve(n);
    size_ = n;
  }
  void Clear() { size_ = 0; }
  void Append(const void* p, size_t n) {
    if (n == 0) return;
    Reserve(size_ + n);
    std::memcpy(data_.get() + size_, p, n);
    size_ += n;
  }
  template <typename T>
  void Push(T v) {
    Reserve(size_ + sizeof(T));
    std::memcpy(data_.get() + size_, &v, sizeof(T));
    size_ += sizeof(T);
  }

 private:
  std::unique_ptr<uint8_t[]> data_;
  size_t size_ = 0;
  size_t capacity_ = 0;
};

class ColumnVector {
 public:
  ColumnVector() = default;
  explicit ColumnVector(DataType type) : type_(std::move(type)) {
    for (const Field& f : type_.children) children.emplace_back(f.type);
    if (type_.HasOffsets()) offsets.push_back(0);
  }

  const DataType& type() const { return type_; }
  int64_t length = 0;
  std::vector<uint8_t> validity;  // Empty: no nulls.
  Buffer values;
  std::vector<int32_t> offsets;   // length + 1 entries (starting at 0) when type().HasOffsets().
  std::vector<ColumnVector> children;
  // Optional, strings and binary only: when every slot came from one Parquet dictionary, that
  // dictionary (a vector of the same type, no nulls) and each slot's index in it (0 for null
  // slots), so consumers can work once per distinct value instead of once per row. The slots'
  // own bytes are still filled in; anything that builds a vector differently simply leaves
  // these empty. Trusted only through HasDictionary(), which appending invalidates.
  std::shared_ptr<const ColumnVector> dictionary;
  std::vector<uint32_t> dictionary_codes;

  bool HasDictionary() const { return dictionary != nullptr && dictionary_codes.size() == static_cast<size_t>(length); }
  bool IsValid(int64_t i) const { return validity.empty() || validity[static_cast<size_t>(i)] != 0; }
  int64_t NullCount() const;

  template <typename T>
  const T* Data() const { return values.As<T>(); }
  template <typename T>
  T* MutableData() { return values.As<T>(); }
  // The bytes of slot i of a string or binary vector.
  std::string_view StringAt(int64_t i) const {
    auto b = static_cast<size_t>(offsets[static_cast<size_t>(i)]);
    auto e = static_cast<size_t>(offsets[static_cast<size_t>(i) + 1]);
    return {reinterpret_cast<const char*>(values.data()) + b, e - b};
  }
  std::string_view FixedAt(int64_t i) const {
    auto w = static_cast<size_t>(type_.FixedWidth());
    return {reinterpret_cast<const char*>(values.data()) + static_cast<size_t>(i) * w, w};
  }

  // Appenders for building vectors by hand (tests, small producers); bulk producers write the
  // buffers directly.
  void AppendNull();
  template <typename T>
  void Append(T v) {
    MarkValid();
    values.Push(v);
    ++length;
  }
  // Inline: decoders append one string per row.
  void AppendString(std::string_view s) {
    MarkValid();
    if (offsets.empty()) offsets.push_back(0);
    values.Append(s.data(), s.size());
    offsets.push_back(static_cast<int32_t>(values.size()));
    ++length;
  }
  // Fixed-width binary slots (fixed, uuid): appends exactly FixedWidth() bytes.
  void MarkAndAppendFixed(std::string_view bytes) {
    MarkValid();
    values.Append(bytes.data(), bytes.size());
    ++length;
  }
  // Lists and maps: closes a slot whose elements were appended to the children.
  void AppendListEnd(bool valid = true);
  // Structs: marks a slot whose fields were appended to the children.
  void AppendStructSlot(bool valid = true);

 private:
  void MarkValid() {
    if (!validity.empty()) validity.push_back(1);
  }

  DataType type_;
};

struct ColumnBatch {
  std::vector<Field> fields;
  std::vector<ColumnVector> columns;  // One per field.
  int64_t num_rows = 0;
};

// A batch with empty vectors of the fields' types.
ColumnBatch MakeEmptyBatch(const std::vector<Field>& fields);

// Whether two vectors hold the same slots byte for byte: validity (no validity equals all
// valid), values, offsets and children. Dictionaries are not compared.
bool SameSlots(const ColumnVector& a, const ColumnVector& b);

// Copies of rows [offset, offset + length) (the caller keeps the range inside the source):
// nested children are cut to the rows' elements and offsets rebased to start at 0.
ColumnVector SliceVector(const ColumnVector& source, int64_t offset, int64_t length);
ColumnBatch SliceBatch(const ColumnBatch& source, int64_t offset, int64_t length);

// Bytes a vector's buffers hold (values, validity, offsets), nested children included; a
// batch's is the sum over its columns. For sizing files and memory, not exact allocation.
int64_t VectorBytes(const ColumnVector& vector);
int64_t BatchBytes(const ColumnBatch& batch);

// Copies of the rows at `rows` (each inside the source), in that order: the partition fanout's
// and the executor's gather. Nested children hold just those rows' elements; strings read from
// one Parquet dictionary keep it.
ColumnVector GatherRows(const ColumnVector& source, const uint32_t* rows, int64_t count);

// Copies `len` bytes where most strings are short (codes, flags, names): up to 16 bytes with
// fixed-size moves that may overlap, instead of a memcpy call per string. Reads and writes
// only [src, src + len) and [dst, dst + len).
inline void CopyStringBytes(uint8_t* dst, const uint8_t* src, size_t len) {
  if (len > 16) {
    std::memcpy(dst, src, len);
  } else if (len >= 8) {
    std::memcpy(dst, src, 8);
    std::memcpy(dst + len - 8, src + len - 8, 8);
  } else if (len >= 4) {
    std::memcpy(dst, src, 4);
    std::memcpy(dst + len - 4, src + len - 4, 4);
  } else if (len > 0) {
    dst[0] = src[0];
    dst[len / 2] = src[len / 2];
    dst[len - 1] = src[len - 1];
  }
}

std::string_view TypeIdName(TypeId id);

}  // namespace floe::formats

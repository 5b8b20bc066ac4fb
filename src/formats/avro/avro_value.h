// AvroValue: one decoded Avro datum of any schema (a generic record tree).
//
// Manifests and manifest lists are small and read once per plan, so a generic tree keeps the
// codec simple; the Iceberg layer maps records to its own structs by field id. A union's value
// is stored as the chosen branch's value (null for the null branch). Plain value type; not
// thread-safe to mutate, safe to read from any thread.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json.hpp>

namespace floe::avro {

struct AvroValue {
  enum class Kind { kNull, kBoolean, kInt, kLong, kFloat, kDouble, kBytes, kString, kFixed, kEnum, kRecord, kArray, kMap };

  Kind kind = Kind::kNull;
  int64_t i = 0;      // boolean (0/1), int, long, enum index
  double d = 0;       // float, double
  std::string s;      // bytes, string, fixed, enum symbol
  std::vector<AvroValue> items;   // record fields (schema order), array items, map values
  std::vector<std::string> keys;  // map keys, parallel to items

  static AvroValue Null() { return {}; }
  static AvroValue Boolean(bool v) { AvroValue x; x.kind = Kind::kBoolean; x.i = v; return x; }
  static AvroValue Int(int32_t v) { AvroValue x; x.kind = Kind::kInt; x.i = v; return x; }
  static AvroValue Long(int64_t v) { AvroValue x; x.kind = Kind::kLong; x.i = v; return x; }
  static AvroValue Float(float v) { AvroValue x; x.kind = Kind::kFloat; x.d = v; return x; }
  static AvroValue Double(double v) { AvroValue x; x.kind = Kind::kDouble; x.d = v; return x; }
  static AvroValue Bytes(std::string v) { AvroValue x; x.kind = Kind::kBytes; x.s = std::move(v); return x; }
  static AvroValue String(std::string v) { AvroValue x; x.kind = Kind::kString; x.s = std::move(v); return x; }
  static AvroValue Fixed(std::string v) { AvroValue x; x.kind = Kind::kFixed; x.s = std::move(v); return x; }
  static AvroValue Enum(int32_t index, std::string symbol) {
    AvroValue x; x.kind = Kind::kEnum; x.i = index; x.s = std::move(symbol); return x;
  }
  static AvroValue Record(std::vector<AvroValue> fields) {
    AvroValue x; x.kind = Kind::kRecord; x.items = std::move(fields); return x;
  }
  static AvroValue Array(std::vector<AvroValue> items) {
    AvroValue x; x.kind = Kind::kArray; x.items = std::move(items); return x;
  }
  static AvroValue Map(std::vector<std::string> keys, std::vector<AvroValue> values) {
    AvroValue x; x.kind = Kind::kMap; x.keys = std::move(keys); x.items = std::move(values); return x;
  }

  bool is_null() const { return kind == Kind::kNull; }



  bool operator==(const AvroValue& other) const = default;
};

}  // namespace floe::avro

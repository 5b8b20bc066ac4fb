// PlainLineDecoder: the event decoder's fast path, for the common event: one object of scalar
// values (and objects of them) per line, written plainly (no escapes; numbers as integers or
// short decimals).
//
// The general path runs simdjson over each line: stage 1 indexes its structure, then the
// On-Demand walk reads it again. For such events one pass that reads each key and value where it
// stands does both. It accepts a strict subset of JSON and decodes that exactly as the general
// path does; anything else (an escape, an exponent, a repeated key, an array, a value of
// another type than its field's, malformed input) it declines, and the caller decodes the line
// on the general path. So every error, and its message, comes from one place. Keys the fields
// do not name are stepped over when their value is a scalar it reads whole.
//
// UTF-8 is checked only where it can occur in an accepted line: inside strings.
#pragma once

#include <cstdint>
#include <string_view>
#include <vector>

#include "formats/column_batch.h"
#include "formats/json/epoch_unit.h"

namespace floe::formats::json {

class PlainLineDecoder {
 public:
  // `fields` must outlive the decoder (it keeps their names).
  PlainLineDecoder(const std::vector<Field>& fields, EpochUnit unit);

  // Decodes the line starting at `line` (ending at its '\n' or at `end`, which must be followed
  // by 64 readable bytes) as one row appended to `columns`, one per field. Returns where the next
  // line starts, or nullptr when it declines the line: then `columns` may hold part of the row,
  // which the caller must cut off.
  const char* DecodeLine(const char* line, const char* end, std::vector<ColumnVector>& columns);

  // Keys the fields do not name are stepped over when their value is a scalar, unless this is
  // set: then such lines are declined (the general path notes unknown keys for --evolve).
  void set_decline_unknown_keys(bool on) { decline_unknown_keys_ = on; }

 private:
  enum class Kind : uint8_t { kString, kInt64, kInt32, kDouble, kFloat, kBoolean, kTimestamp, kDate, kStruct, kOther };
  struct Slot {
    std::string_view name;
    bool plain_name = false;  // json::IsPlainKeyName: RawKeyIs can compare keys with it.
    Kind kind = Kind::kOther;
    bool nullable = true;
    std::vector<Slot> children;  // kStruct (and the root): one per field.
    std::vector<uint8_t> seen;   // kStruct (and the root): which fields the current object set.
  };
  // Objects nested deeper than this are left to the general path.
  static constexpr int kMaxDepth = 16;

  static Slot MakeSlot(const Field& field);
  // The child of `object` named `key`, searched from `first` on (wrapping), or children.size().
  static size_t FindChild(const Slot& object, std::string_view key, size_t first);
  // Reads the object at `p` (its '{', at nesting `depth`; the line's is 1) into `columns`, one
  // per child of `object`: where it ends, or nullptr.
  const char* DecodeObject(Slot& object, std::vector<ColumnVector>& columns, const char* p, const char* end, int depth);
  const char* DecodeValue(Slot& slot, ColumnVector& out, const char* p, const char* end, int depth);
  static const char* SkipScalar(const char* p, const char* end);

  Slot root_;
  EpochUnit unit_;
  bool decline_unknown_keys_ = false;
};

}  // namespace floe::formats::json

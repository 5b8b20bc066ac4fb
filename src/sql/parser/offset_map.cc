#include "sql/parser/offset_map.h"

#include <algorithm>

namespace floe::sql {

void OffsetMap::Copy(std::string_view original, int begin, int end, std::string& out) {
  if (end <= begin) return;
  int out_begin = static_cast<int>(out.size());
  out.append(original.substr(begin, end - begin));
  segments_.push_back({out_begin, static_cast<int>(out.size()), begin, true});
}

void OffsetMap::Replace(std::string_view replacement, int begin, int end, std::string& out) {
  int out_begin = static_cast<int>(out.size());
  out.append(replacement);
  segments_.push_back({out_begin, static_cast<int>(out.size()), begin, false});
  (void)end;
}

int OffsetMap::ToOriginal(int offset) const {
  if (offset < 0 || segments_.empty()) return offset;
  auto it = std::upper_bound(segments_.begin(), segments_.end(), offset,
                             [](int value, const Segment& s) { return value < s.out_begin; });
  if (it == segments_.begin()) return segments_.front().in_begin;
  const Segment& s = *(it - 1);
  if (!s.copied) return s.in_begin;
  return s.in_begin + (offset - s.out_begin);
}

}  // namespace floe::sql

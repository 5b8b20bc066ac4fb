// Maps byte offsets in text the pre-parser rewrote back to offsets in the user's original text,
// so every error and AST location stays true to what the user typed. Built once while
// rewriting, then read-only; any thread may read it.
#pragma once

#include <string>
#include <string_view>
#include <vector>

namespace floe::sql {

class OffsetMap {
 public:
  // Appends original text [begin, end) unchanged.
  void Copy(std::string_view original, int begin, int end, std::string& out);
  // Appends `replacement` standing for original [begin, end).
  void Replace(std::string_view replacement, int begin, int end, std::string& out);

  // The original offset of rewritten offset `offset` (inside a replacement: its original start).
  int ToOriginal(int offset) const;

 private:
  struct Segment {
    int out_begin, out_end, in_begin;
    bool copied;
  };
  std::vector<Segment> segments_;
};

}  // namespace floe::sql
